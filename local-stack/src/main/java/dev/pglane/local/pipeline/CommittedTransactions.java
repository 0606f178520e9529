package dev.pglane.local.pipeline;

import dev.pglane.local.kafka.WireRecord;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.Marker;
import java.time.Instant;

/**
 * Tallies the END markers of a source's marker topic up to a WAL position: how many transactions the source
 * committed with changes, how many changes they hold, and where the last of them ends.
 *
 * <p>Each END is counted once: within a source generation ENDs come in commit order, so an END at or before the
 * greatest one seen is a copy that a restarted source sent again (wire-format.md §5).
 */
public final class CommittedTransactions {
    private final Lsn limit;
    private long transactions;
    private long changes;
    private Lsn lastEnd = Lsn.INVALID;
    private Lsn lastChangeEnd = Lsn.INVALID;
    private Instant lastCommit = Instant.EPOCH;

    /** Counts the transactions whose END {@code end_lsn} is at or before {@code limit}. */
    public CommittedTransactions(Lsn limit) {
        this.limit = limit;
    }

    public void accept(WireRecord record) {
        if (record instanceof WireRecord.MarkerRecord marker
                && marker.marker() instanceof Marker.End end
                && end.endLsn().compareTo(limit) <= 0
                && end.endLsn().compareTo(lastEnd) > 0) {
            lastEnd = end.endLsn();
            if (end.eventCount() > 0) {
                transactions++;
                changes += end.eventCount();
                lastChangeEnd = end.endLsn();
                lastCommit = Instant.ofEpochSecond(0, end.commitTsUs() * 1000);
            }
        }
    }

    /** Transactions with at least one change. */
    public long transactions() {
        return transactions;
    }

    /** Their changes: the sum of their END {@code event_count}s. */
    public long changes() {
        return changes;
    }

    /** The END {@code end_lsn} of the last transaction, with or without changes; INVALID when none. */
    public Lsn lastEnd() {
        return lastEnd;
    }

    /**
     * The END {@code end_lsn} of the last transaction with changes; INVALID when none. A sink that applied it has
     * applied everything before it. Transactions without changes (PostgreSQL 14 sends those of catalog-only work)
     * are left out: a sink need not record them.
     */
    public Lsn lastChangeEnd() {
        return lastChangeEnd;
    }

    /** The commit time of the last transaction with changes. */
    public Instant lastCommit() {
        return lastCommit;
    }

    @Override
    public String toString() {
        return transactions + " transactions with " + changes + " changes up to " + limit + ", the last ending at "
                + lastChangeEnd;
    }
}
