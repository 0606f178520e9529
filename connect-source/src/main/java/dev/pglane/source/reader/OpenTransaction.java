package dev.pglane.source.reader;

import dev.pglane.source.capture.CapturedTables;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.SnapshotChunk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The counters of one transaction while its records are being emitted: the next ordinal, the position
 * per table, and the record counts its END marker reports. A streamed transaction also keeps the counts
 * per subtransaction, because a subtransaction ABORT cancels exactly those records.
 */
final class OpenTransaction {
    /** Records of one data collection (table, or "messages") on one topic. */
    private static final class Count {
        final String topic;
        long records;

        Count(String topic) {
            this.topic = topic;
        }
    }

    private final long xid;
    private final boolean streamed;
    private final Lsn commitLsn;
    private final long commitTimeMicros;
    private boolean skipped;

    private long ordinal;
    private boolean announced;
    private final Map<String, Long> positions = new HashMap<>();
    private final Map<String, Count> counts = new LinkedHashMap<>();
    private final Map<Long, Map<String, Long>> countsBySubxid = new HashMap<>();

    /**
     * @param commitLsn Begin's final LSN; {@link Lsn#INVALID} for a streamed transaction, not known yet
     * @param commitTimeMicros the commit time, or for a streamed one the time its first chunk arrived
     * @param skipped it committed before the resume point: none of its records are emitted again
     */
    /** The snapshot chunk this transaction carries (its high watermark's), for its END; else null. */
    private SnapshotChunk snapshotChunk;
    /** The offsets carry {@link #progressAfter} from this transaction's END on. */
    private boolean progressChanges;

    private String progressAfter;

    /** The captured tables from this transaction's END on; {@code null}: unchanged. */
    private CapturedTables tablesAfter;

    OpenTransaction(long xid, boolean streamed, Lsn commitLsn, long commitTimeMicros, boolean skipped) {
        this.xid = xid;
        this.streamed = streamed;
        this.commitLsn = commitLsn;
        this.commitTimeMicros = commitTimeMicros;
        this.skipped = skipped;
    }

    long xid() {
        return xid;
    }

    boolean streamed() {
        return streamed;
    }

    Lsn commitLsn() {
        return commitLsn;
    }

    long commitTimeMicros() {
        return commitTimeMicros;
    }

    boolean skipped() {
        return skipped;
    }

    /** None of the transaction is emitted: it came through a replication origin that is filtered out. */
    void skip() {
        skipped = true;
    }

    /** True once anything of the transaction was emitted, so that it needs an END or ABORT. */
    boolean announced() {
        return announced;
    }

    void announce() {
        announced = true;
    }

    /**
     * Counts one record; returns its {@code data_collection_order}. Read {@link #ordinal()} afterwards for
     * its {@code total_order}.
     */
    long count(String dataCollection, String topic, long subxid) {
        ordinal++;
        long position = positions.merge(dataCollection, 1L, Long::sum);
        counts.computeIfAbsent(dataCollection, c -> new Count(topic)).records++;
        if (streamed) {
            countsBySubxid.computeIfAbsent(subxid, s -> new HashMap<>()).merge(dataCollection, 1L, Long::sum);
        }
        return position;
    }

    /** The {@code total_order} of the last counted record. */
    long ordinal() {
        return ordinal;
    }

    /**
     * Takes the records of an aborted subtransaction out of the counts; their ordinals stay used.
     *
     * @return whether the subtransaction had any records
     */
    /** This transaction wrote a chunk's high watermark: it carries the chunk's rows. */
    void carry(SnapshotChunk chunk, String progress) {
        this.snapshotChunk = chunk;
        progressFrom(progress);
    }

    /** From this transaction's END on, the snapshot progress is {@code progress} ({@code null}: none). */
    void progressFrom(String progress) {
        this.progressChanges = true;
        this.progressAfter = progress;
    }

    /** From this transaction's END on, the captured tables are {@code tables}. */
    void tablesFrom(CapturedTables tables) {
        this.tablesAfter = tables;
    }

    CapturedTables tablesAfter() {
        return tablesAfter;
    }

    SnapshotChunk snapshotChunk() {
        return snapshotChunk;
    }

    /** True if the snapshot progress changes at this transaction's END. */
    boolean changesProgress() {
        return progressChanges;
    }

    String progressAfter() {
        return progressAfter;
    }

    boolean abortSubtransaction(long subxid) {
        Map<String, Long> cancelled = countsBySubxid.remove(subxid);
        if (cancelled == null) {
            return false;
        }
        cancelled.forEach((collection, records) -> counts.get(collection).records -= records);
        return true;
    }

    /** The END marker's {@code data_collections}, tables in the order they first appeared. */
    List<DataCollectionCount> dataCollections() {
        List<DataCollectionCount> out = new ArrayList<>(counts.size());
        counts.forEach((collection, count) -> {
            if (count.records > 0) {
                out.add(new DataCollectionCount(collection, count.records, count.topic));
            }
        });
        return out;
    }
}
