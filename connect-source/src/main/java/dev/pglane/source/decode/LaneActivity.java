package dev.pglane.source.decode;

/** Receives how long each lane spends decoding, for the busy-ratio metric. */
@FunctionalInterface
public interface LaneActivity {
    LaneActivity NONE = (lane, busyNanos) -> {};

    void decoded(int lane, long busyNanos);
}
