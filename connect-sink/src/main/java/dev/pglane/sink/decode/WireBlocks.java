package dev.pglane.sink.decode;

import dev.pglane.connect.json.PlainStructs;
import dev.pglane.wire.FieldValues;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.marker.MarkerCodec;
import org.apache.kafka.connect.data.Schema;

/**
 * The structs of the wire that the sink reads only through {@code StructReader}, and so takes as
 * {@link FieldValues}: an envelope, its source and transaction blocks, a marker. They are most of a change record's
 * fields; its rows stay Structs, since the sink applies them as Connect data.
 */
final class WireBlocks implements PlainStructs {
    static final WireBlocks INSTANCE = new WireBlocks();

    private WireBlocks() {}

    @Override
    public boolean takes(Schema schema) {
        String name = schema.name();
        return name != null
                && (name.endsWith(EnvelopeSchemas.NAME_SUFFIX)
                        || name.equals(SourceInfo.SCHEMA_NAME)
                        || name.equals(TransactionInfo.SCHEMA_NAME)
                        || name.equals(MarkerCodec.SCHEMA_NAME));
    }

    @Override
    public Object make(Schema schema, Object[] values) {
        return new FieldValues(schema, values);
    }
}
