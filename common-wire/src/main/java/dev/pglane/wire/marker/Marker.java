package dev.pglane.wire.marker;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.Xid;
import java.util.List;
import java.util.Objects;

/**
 * A record on the marker topic {@code <prefix>.transactions} (one partition, key {@code {xid}}).
 *
 * <p>Markers are written in stream order and are the authority on transaction order and on source
 * restarts. See {@code package-info} for the generation and discard rule.
 */
public sealed interface Marker permits Marker.Begin, Marker.End, Marker.Abort, Marker.Start, Marker.Heartbeat {

    /** The source task run that wrote this marker. */
    long generation();

    /** The marker's {@code ts_ms}. */
    long tsMs();

    /** The {@code status} value. */
    MarkerStatus status();

    /** The xid of the record key: the transaction's xid, or {@link Xid#NONE} for START and HEARTBEAT. */
    long keyXid();

    /**
     * Optional, for Debezium compatibility: a transaction's records follow.
     *
     * @param commitLsn the commit LSN announced by pgoutput's Begin ({@code final_lsn}); invalid for a
     *     streamed transaction, whose commit LSN is not known yet
     * @param commitTsUs commit time in microseconds since the epoch, or the send time when streamed
     */
    record Begin(long generation, long xid, Lsn commitLsn, long commitTsUs) implements Marker {
        public Begin {
            Xid.checkRange(xid);
            Objects.requireNonNull(commitLsn, "commitLsn");
        }

        @Override
        public long tsMs() {
            return Math.floorDiv(commitTsUs, 1000L);
        }

        @Override
        public MarkerStatus status() {
            return MarkerStatus.BEGIN;
        }

        @Override
        public long keyXid() {
            return xid;
        }
    }

    /**
     * The transaction committed and all of its records in this generation have been emitted.
     *
     * @param commitLsn start of the commit record ({@code Commit.commit_lsn})
     * @param endLsn end of the commit record: the position a consumer stores once it applied the
     *     transaction, and the only kind of position the source confirms to the slot
     * @param commitTsUs commit time, microseconds since the epoch
     * @param eventCount records of this transaction in this generation, not counting those cancelled by
     *     an ABORT of their subtransaction
     * @param dataCollections the same count per table (and per topic)
     * @param snapshot the chunk of existing rows this transaction carries, or {@code null} for a transaction of
     *     the stream
     */
    record End(
            long generation,
            long xid,
            Lsn commitLsn,
            Lsn endLsn,
            long commitTsUs,
            long eventCount,
            List<DataCollectionCount> dataCollections,
            SnapshotChunk snapshot)
            implements Marker {
        /** The END of a transaction of the stream. */
        public End(
                long generation,
                long xid,
                Lsn commitLsn,
                Lsn endLsn,
                long commitTsUs,
                long eventCount,
                List<DataCollectionCount> dataCollections) {
            this(generation, xid, commitLsn, endLsn, commitTsUs, eventCount, dataCollections, null);
        }

        public End {
            Xid.checkRange(xid);
            Objects.requireNonNull(commitLsn, "commitLsn");
            Objects.requireNonNull(endLsn, "endLsn");
            dataCollections = List.copyOf(dataCollections);
            long sum = dataCollections.stream()
                    .mapToLong(DataCollectionCount::eventCount)
                    .sum();
            if (sum != eventCount) {
                throw new IllegalArgumentException("END of xid " + xid + ": event_count " + eventCount
                        + " differs from the sum of data_collections " + sum);
            }
        }

        @Override
        public long tsMs() {
            return Math.floorDiv(commitTsUs, 1000L);
        }

        @Override
        public MarkerStatus status() {
            return MarkerStatus.END;
        }

        @Override
        public long keyXid() {
            return xid;
        }
    }

    /**
     * A streamed transaction, or one of its subtransactions, rolled back: drop the records of this
     * generation that carry {@code transaction.subxid == subxid} (all records of the xid when
     * {@code subxid == xid}).
     *
     * @param abortLsn the abort record's LSN; {@link Lsn#INVALID} when PostgreSQL did not send one
     */
    record Abort(long generation, long tsMs, long xid, long subxid, Lsn abortLsn) implements Marker {
        public Abort {
            Xid.checkRange(xid);
            Xid.checkRange(subxid);
            Objects.requireNonNull(abortLsn, "abortLsn");
        }

        /** True if the whole transaction aborted, not just a subtransaction. */
        public boolean isTopLevel() {
            return subxid == xid;
        }

        @Override
        public MarkerStatus status() {
            return MarkerStatus.ABORT;
        }

        @Override
        public long keyXid() {
            return xid;
        }
    }

    /**
     * A source task run announces itself before any of its records.
     *
     * @param resumeLsn where this run started replication (the stored {@code commit_end_lsn})
     * @param systemId the source server's system identifier ({@code IDENTIFY_SYSTEM}), decimal; {@code null} from
     *     sources that did not send it
     * @param timeline the server's timeline then; {@code null} when {@code systemId} is
     */
    record Start(long generation, long tsMs, Lsn resumeLsn, String systemId, Long timeline) implements Marker {
        public Start {
            Objects.requireNonNull(resumeLsn, "resumeLsn");
        }

        /** A START that does not name its server. */
        public Start(long generation, long tsMs, Lsn resumeLsn) {
            this(generation, tsMs, resumeLsn, null, null);
        }

        @Override
        public MarkerStatus status() {
            return MarkerStatus.START;
        }

        @Override
        public long keyXid() {
            return Xid.NONE;
        }
    }

    /**
     * The source is idle and the server confirmed position {@code lsn}: no transaction ending at or
     * before it is still to come, so a consumer may advance its view of the source.
     */
    record Heartbeat(long generation, long tsMs, Lsn lsn) implements Marker {
        public Heartbeat {
            Objects.requireNonNull(lsn, "lsn");
        }

        @Override
        public MarkerStatus status() {
            return MarkerStatus.HEARTBEAT;
        }

        @Override
        public long keyXid() {
            return Xid.NONE;
        }
    }
}
