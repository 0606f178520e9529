package dev.pglane.sink.decode;

import dev.pglane.wire.TopicNames;
import dev.pglane.wire.debezium.DebeziumChanges;
import dev.pglane.wire.debezium.DebeziumMarkers;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import java.util.function.BooleanSupplier;

/**
 * Reads a record's value, as {@link PayloadReader} delivered it, in the format of the connector that wrote it
 * ({@link SourceFormat}). Not thread-safe: every decode thread has its own.
 */
public interface EnvelopeReader {

    /** @throws org.apache.kafka.connect.errors.DataException if {@code value} is not a marker of this format */
    Marker marker(Object value);

    /**
     * @param keyless whether the record has no key (its key read as null), asked only if the format needs it
     * @throws org.apache.kafka.connect.errors.DataException if {@code value} is not a change of this format
     */
    ChangeEvent change(Object value, BooleanSupplier keyless);

    /** A reader of {@code settings.source()}'s records, whose topics are {@code topics}. */
    static EnvelopeReader of(DecodeSettings settings, TopicNames topics) {
        return settings.source() == SourceFormat.DEBEZIUM
                ? new Debezium(topics, new DebeziumChanges(settings.unavailablePlaceholder()))
                : new Pglane();
    }

    /** pglane's own envelopes and markers. */
    final class Pglane implements EnvelopeReader {
        @Override
        public Marker marker(Object value) {
            return MarkerCodec.fromStruct(value);
        }

        @Override
        public ChangeEvent change(Object value, BooleanSupplier keyless) {
            return ChangeEnvelope.fromStruct(value);
        }
    }

    /** Debezium's PostgreSQL envelopes, and its transaction metadata as markers. */
    record Debezium(TopicNames topics, DebeziumChanges changes) implements EnvelopeReader {
        @Override
        public Marker marker(Object value) {
            return DebeziumMarkers.fromStruct(value, topics);
        }

        @Override
        public ChangeEvent change(Object value, BooleanSupplier keyless) {
            return changes.fromStruct(value, keyless);
        }
    }
}
