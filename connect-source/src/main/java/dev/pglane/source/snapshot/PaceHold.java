package dev.pglane.source.snapshot;

import dev.pglane.source.pace.SnapshotPace;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the snapshot's new chunks wait for its pace, how long they have waited, and what the log says of it: an INFO
 * the first time in a session, a WARN each minute of one wait that lasts (a sink that stopped holds the snapshot until
 * it runs again). Not thread-safe: the runner calls it under its lock.
 */
final class PaceHold {
    private static final Logger log = LoggerFactory.getLogger(PaceHold.class);
    private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final String connectorName;
    private final SnapshotPace pace;
    private final LongSupplier clock;
    /** Since when new chunks wait (the clock's nanoseconds); -1 while they do not. */
    private long heldSince = -1;

    private long heldNanos;
    private long warnedAt;
    private boolean told;

    PaceHold(String connectorName, SnapshotPace pace) {
        this(connectorName, pace, System::nanoTime);
    }

    PaceHold(String connectorName, SnapshotPace pace, LongSupplier clock) {
        this.connectorName = connectorName;
        this.pace = pace;
        this.clock = clock;
    }

    /**
     * True while the pace holds the new chunks of snapshot {@code snapshotId} back, with {@code outstandingRecords} in
     * chunks already started; the time is counted.
     */
    boolean holds(String snapshotId, long outstandingRecords) {
        long now = clock.getAsLong();
        if (!pace.holds(outstandingRecords)) {
            if (heldSince >= 0) {
                heldNanos += now - heldSince;
                heldSince = -1;
            }
            return false;
        }
        if (heldSince < 0) {
            heldSince = now;
            warnedAt = now;
            if (!told) {
                told = true;
                log.info(
                        "pglane source {}: snapshot {} holds new chunks back: {}",
                        connectorName,
                        snapshotId,
                        pace.describe());
            }
        } else if (now - warnedAt >= WARN_EVERY_NANOS) {
            warnedAt = now;
            log.warn(
                    "pglane source {}: snapshot {} has held new chunks back for {} s: {}; is the sink running?",
                    connectorName,
                    snapshotId,
                    TimeUnit.NANOSECONDS.toSeconds(now - heldSince),
                    pace.describe());
        }
        return true;
    }

    /** How long new chunks have waited in all, the wait under way included. */
    long heldMillis() {
        long held = heldNanos + (heldSince < 0 ? 0 : clock.getAsLong() - heldSince);
        return TimeUnit.NANOSECONDS.toMillis(held);
    }
}
