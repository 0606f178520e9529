package dev.pglane.wire.envelope;

import static dev.pglane.wire.envelope.EnvelopeSchemas.AFTER;
import static dev.pglane.wire.envelope.EnvelopeSchemas.BEFORE;
import static dev.pglane.wire.envelope.EnvelopeSchemas.MESSAGE;
import static dev.pglane.wire.envelope.EnvelopeSchemas.OP;
import static dev.pglane.wire.envelope.EnvelopeSchemas.PENDING_SNAPSHOT;
import static dev.pglane.wire.envelope.EnvelopeSchemas.SOURCE;
import static dev.pglane.wire.envelope.EnvelopeSchemas.TEXT_VALUES;
import static dev.pglane.wire.envelope.EnvelopeSchemas.TRANSACTION;
import static dev.pglane.wire.envelope.EnvelopeSchemas.TRUNCATE;
import static dev.pglane.wire.envelope.EnvelopeSchemas.TS_MS;
import static dev.pglane.wire.envelope.EnvelopeSchemas.TS_NS;
import static dev.pglane.wire.envelope.EnvelopeSchemas.TS_US;
import static dev.pglane.wire.envelope.EnvelopeSchemas.UNCHANGED_TOAST;

import dev.pglane.wire.StructBuilder;
import dev.pglane.wire.StructReader;
import dev.pglane.wire.WireFormatException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Encodes a {@link ChangeEvent} as the envelope {@link Struct} and decodes it back: the one place
 * both connectors turn change values into and out of Connect data.
 */
public final class ChangeEnvelope {

    private ChangeEnvelope() {}

    /**
     * The envelope struct of {@code event}.
     *
     * @param envelopeSchema from {@link EnvelopeSchemas}: {@code forRow} of the rows' schema, or
     *     {@code forMessages} for op {@code m}
     * @throws WireFormatException if the schema has no field for something the event carries
     */
    public static Struct toStruct(ChangeEvent event, Schema envelopeSchema) {
        return (Struct) toValue(event, envelopeSchema, StructBuilder.Kind.STRUCT);
    }

    /**
     * The envelope of {@code event} as a value of {@code kind}, its blocks too; the rows are the event's structs.
     *
     * @see #toStruct
     */
    public static Object toValue(ChangeEvent event, Schema envelopeSchema, StructBuilder.Kind kind) {
        StructBuilder out = kind.start(envelopeSchema);
        putIfPresent(out, envelopeSchema, BEFORE, event.before());
        putIfPresent(out, envelopeSchema, AFTER, event.after());
        out.put(SOURCE, event.source().toValue(kind));
        out.put(OP, event.op().code());
        Timestamps time = event.processingTime();
        if (time != null) {
            out.put(TS_MS, time.ms()).put(TS_US, time.us()).put(TS_NS, time.ns());
        }
        if (event.transaction() != null) {
            out.put(TRANSACTION, event.transaction().toValue(kind));
        }
        putIfPresent(
                out, envelopeSchema, UNCHANGED_TOAST, event.unchangedToast().isEmpty() ? null : event.unchangedToast());
        putIfPresent(out, envelopeSchema, TEXT_VALUES, event.textValues().isEmpty() ? null : event.textValues());
        putIfPresent(
                out,
                envelopeSchema,
                TRUNCATE,
                event.truncate() == null ? null : event.truncate().toValue(kind));
        putIfPresent(
                out,
                envelopeSchema,
                MESSAGE,
                event.message() == null ? null : event.message().toValue(kind));
        putIfPresent(out, envelopeSchema, PENDING_SNAPSHOT, event.pendingSnapshot() ? Boolean.TRUE : null);
        return out.build();
    }

    /**
     * Decodes an envelope struct, or its {@link dev.pglane.wire.FieldValues} (whose rows are structs).
     *
     * @throws WireFormatException naming the field and value if {@code value} is not a pglane envelope:
     *     wrong schema name, missing required field, unknown op, or fields that do not fit the op
     */
    public static ChangeEvent fromStruct(Object value) {
        StructReader in = StructReader.ofNameSuffix(value, EnvelopeSchemas.NAME_SUFFIX, "envelope");
        Integer version = in.schema().version();
        if (version != null && version > EnvelopeSchemas.VERSION) {
            throw in.invalid(
                    OP,
                    in.requiredString(OP),
                    "the envelope schema is version " + version + ", written by a newer pglane source; this reader"
                            + " knows versions up to " + EnvelopeSchemas.VERSION + ": upgrade the consumer");
        }
        Op op = Op.fromCode(in.requiredString(OP));
        Object source = in.optionalBlock(SOURCE);
        if (source == null) {
            throw in.invalid(SOURCE, null, "required field is missing");
        }
        Object transaction = in.optionalBlock(TRANSACTION);
        Object truncate = in.optionalBlock(TRUNCATE);
        Object message = in.optionalBlock(MESSAGE);
        List<String> unchangedToast = in.optionalArray(UNCHANGED_TOAST);
        Map<String, String> textValues = in.optionalMap(TEXT_VALUES);
        return new ChangeEvent(
                op,
                in.optionalStruct(BEFORE),
                in.optionalStruct(AFTER),
                SourceInfo.fromStruct(source),
                transaction == null ? null : TransactionInfo.fromStruct(transaction),
                processingTime(in),
                unchangedToast,
                textValues,
                truncate == null ? null : TruncateInfo.fromStruct(truncate),
                message == null ? null : LogicalMessage.fromStruct(message),
                Boolean.TRUE.equals(in.optionalBoolean(PENDING_SNAPSHOT)));
    }

    private static Timestamps processingTime(StructReader in) {
        Long ms = in.optionalLong(TS_MS);
        Long us = in.optionalLong(TS_US);
        Long ns = in.optionalLong(TS_NS);
        if (ms == null) {
            if (us != null || ns != null) {
                throw in.invalid(TS_MS, null, "required when ts_us or ts_ns is set");
            }
            return null;
        }
        return new Timestamps(ms, us, ns);
    }

    private static void putIfPresent(StructBuilder out, Schema schema, String field, Object value) {
        if (value == null) {
            return;
        }
        if (schema.field(field) == null) {
            throw WireFormatException.forField(
                    "envelope", field, value, "schema " + schema.name() + " has no such field");
        }
        out.put(field, value);
    }
}
