package dev.pglane.sink.assemble;

import dev.pglane.wire.envelope.ChangeEvent;
import org.apache.kafka.common.TopicPartition;

/**
 * One decoded change record as the sink holds it between {@code put()} and apply.
 *
 * @param partition where Kafka delivered it (named in every error about it)
 * @param offset its Kafka offset
 * @param event the decoded envelope
 * @param sizeBytes an estimate of the heap it occupies, counted against {@code buffer.max.bytes}
 */
public record ChangeRecord(TopicPartition partition, long offset, ChangeEvent event, long sizeBytes) {

    /** {@code topic-partition@offset}, the way errors name a record. */
    public String position() {
        return partition + "@" + offset;
    }
}
