package dev.pglane.sink;

import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.wire.marker.SnapshotChunk;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the source's snapshot stands on the target, told by the snapshot chunks committed there: an INFO line when
 * a table's last chunk commits (its existing rows are then all on the target) and when the snapshot's last one
 * does, and the gauges {@code snapshot-tables-done} and {@code snapshot-complete}. Both describe the latest snapshot
 * this task run applied chunks of, as far as this run saw it: nothing is stored, so a task restarted after a table
 * finished counts only what it applies itself.
 *
 * <p>Called by the worker that commits a chunk, in commit order.
 */
final class SnapshotProgress {
    private static final Logger log = LoggerFactory.getLogger(SnapshotProgress.class);

    private String snapshotId;
    /** Chunks this run applied, per table of {@link #snapshotId} not done yet: a count per table, not per chunk. */
    private final Map<String, Long> chunksByTable = new HashMap<>();

    private long chunks;
    private volatile long tablesDone;
    private volatile boolean complete;

    /** {@code tx}, the chunk's transaction (or the group it ends), committed on the target. */
    synchronized void applied(SnapshotChunk chunk, SourceTransaction tx) {
        if (!chunk.snapshotId().equals(snapshotId)) {
            snapshotId = chunk.snapshotId();
            chunksByTable.clear();
            chunks = 0;
            tablesDone = 0;
            complete = false;
        }
        chunks++;
        long ofTable = chunksByTable.merge(chunk.table(), 1L, Long::sum);
        log.debug("Snapshot {}: applied chunk {} of {} ({})", snapshotId, chunk.chunk(), chunk.table(), tx.describe());
        if (chunk.tableDone()) {
            chunksByTable.remove(chunk.table());
            tablesDone++;
            log.info(
                    "Snapshot {}: table {} has all its existing rows on the target; its last chunk, {}, committed"
                            + " with {}; this task run applied {} of its chunks",
                    snapshotId,
                    chunk.table(),
                    chunk.chunk(),
                    tx.describe(),
                    ofTable);
        }
        if (chunk.snapshotDone()) {
            complete = true;
            log.info(
                    "Snapshot {} complete on the target: every snapshotted table has its existing rows; this"
                            + " task run applied {} chunks and finished {} tables (last {})",
                    snapshotId,
                    chunks,
                    tablesDone,
                    tx.describe());
        }
    }

    /** Tables of the latest snapshot whose last chunk this run applied. */
    long tablesDone() {
        return tablesDone;
    }

    /** 1 once this run applied the latest snapshot's last chunk, else 0. */
    long complete() {
        return complete ? 1 : 0;
    }
}
