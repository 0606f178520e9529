package dev.pglane.sink.assemble;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * How the {@link TransactionAssembler} buffers.
 *
 * @param maxBytes in-memory bytes of buffered copies above which the largest copies are spilled
 * @param spillArea where spill files go
 * @param countedTopic true for the topics the sink consumes: an END's per-topic counts of any other
 *     topic are not awaited, since those records never arrive
 */
public record AssemblerSettings(long maxBytes, SpillArea spillArea, Predicate<String> countedTopic) {

    public AssemblerSettings {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
        Objects.requireNonNull(spillArea, "spillArea");
        Objects.requireNonNull(countedTopic, "countedTopic");
    }
}
