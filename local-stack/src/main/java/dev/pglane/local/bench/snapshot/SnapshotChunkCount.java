package dev.pglane.local.bench.snapshot;

import dev.pglane.local.kafka.WireRecord;
import dev.pglane.wire.marker.Marker;
import java.util.function.Consumer;

/**
 * Counts a snapshot's chunks on the marker topic: each chunk is one transaction whose END carries a {@code snapshot}
 * block and counts its rows; the END that says {@code snapshot_done} is the last.
 */
final class SnapshotChunkCount implements Consumer<WireRecord> {
    private long chunks;
    private long rows;
    private boolean done;

    @Override
    public void accept(WireRecord record) {
        if (record instanceof WireRecord.MarkerRecord marker
                && marker.marker() instanceof Marker.End end
                && end.snapshot() != null) {
            chunks++;
            rows += end.eventCount();
            done |= end.snapshot().snapshotDone();
        }
    }

    boolean done() {
        return done;
    }

    long rows() {
        return rows;
    }

    @Override
    public String toString() {
        return "waiting for the snapshot's last chunk; " + chunks + " chunks with " + rows + " rows so far";
    }
}
