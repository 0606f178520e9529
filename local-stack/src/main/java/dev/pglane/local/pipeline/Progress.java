package dev.pglane.local.pipeline;

import dev.pglane.wire.Lsn;
import java.time.Duration;
import java.time.Instant;

/**
 * The sink's progress row as read from the target: the last source transaction it applied.
 *
 * @param endLsn the END {@code end_lsn} of that transaction
 * @param commitTs its commit time on the source
 * @param xid its xid
 * @param readAt the target's clock when the row was read
 */
public record Progress(Lsn endLsn, Instant commitTs, long xid, Instant readAt) {
    /** Nothing applied yet: no progress row (or no progress table). */
    public static final Progress NONE = new Progress(Lsn.INVALID, Instant.EPOCH, 0, Instant.EPOCH);

    public boolean isNone() {
        return !endLsn.isValid();
    }

    /**
     * How long ago, at {@link #readAt}, the last applied transaction committed on the source. While the source keeps
     * committing, that is the replication lag; once it stops, it keeps growing. Both servers share this machine's
     * clock.
     */
    public Duration lag() {
        return Duration.between(commitTs, readAt);
    }

    @Override
    public String toString() {
        return isNone() ? "nothing applied" : "end_lsn " + endLsn + " (xid " + xid + ", committed " + commitTs + ")";
    }
}
