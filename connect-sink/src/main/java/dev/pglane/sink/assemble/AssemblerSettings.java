package dev.pglane.sink.assemble;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * How the {@link TransactionAssembler} buffers.
 *
 * @param maxBytes in-memory bytes of buffered copies above which the largest copies are spilled
 * @param spillArea where spill files go
 * @param spillMaxBytes spill.max.bytes: a copy whose spill files alone exceed it is reported, once
 * @param countedTopic true for the topics the sink consumes: an END's per-topic counts of any other
 *     topic are not awaited, since those records never arrive
 */
public record AssemblerSettings(
        long maxBytes, SpillArea spillArea, long spillMaxBytes, Predicate<String> countedTopic) {

    public AssemblerSettings {
        if (maxBytes <= 0 || spillMaxBytes <= 0) {
            throw new IllegalArgumentException(
                    "maxBytes and spillMaxBytes must be positive: " + maxBytes + ", " + spillMaxBytes);
        }
        Objects.requireNonNull(spillArea, "spillArea");
        Objects.requireNonNull(countedTopic, "countedTopic");
    }
}
