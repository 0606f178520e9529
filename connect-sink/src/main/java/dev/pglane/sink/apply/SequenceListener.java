package dev.pglane.sink.apply;

/** Told of every sequence value the sink did not apply as sent (for metrics; each reason is also a WARN). */
@FunctionalInterface
public interface SequenceListener {
    /** Ignores them. */
    SequenceListener NONE = () -> {};

    /** A value was skipped, or clamped to its sequence's bounds. Called on an apply worker's thread. */
    void sequenceValueSkipped();
}
