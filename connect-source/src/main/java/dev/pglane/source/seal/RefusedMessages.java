package dev.pglane.source.seal;

import dev.pglane.wire.Lsn;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The messages addressed to this connector that it did not obey: counted for the metric {@code
 * wal-messages-refused-total}, and warned of at most once a minute, since whoever emits them can emit many. A warning
 * names the prefix, the position and the reason, never the content: that is the emitter's text.
 */
public final class RefusedMessages {
    private static final Logger log = LoggerFactory.getLogger(RefusedMessages.class);
    private static final long WARN_EVERY_NANOS = Duration.ofMinutes(1).toNanos();

    private final AtomicLong total = new AtomicLong();
    private long lastWarnNanos;
    private long unwarned;
    private boolean warned;

    /** How many were refused since the task started. */
    public long total() {
        return total.get();
    }

    /** A message that does not carry this connector's seal. */
    public void unsealed(String prefix, Lsn lsn) {
        refuse(
                prefix,
                lsn,
                "it does not carry this connector's seal, so pglane did not write it (any login may call"
                        + " pg_logical_emit_message unless EXECUTE on it is revoked; see docs/operations.md)");
    }

    /**
     * @param prefix the message's prefix
     * @param lsn where it is in the stream
     * @param reason why it is not obeyed
     */
    public void refuse(String prefix, Lsn lsn, String reason) {
        total.incrementAndGet();
        long now = System.nanoTime();
        long before;
        synchronized (this) {
            if (warned && now - lastWarnNanos < WARN_EVERY_NANOS) {
                unwarned++;
                return;
            }
            warned = true;
            lastWarnNanos = now;
            before = unwarned;
            unwarned = 0;
        }
        log.warn(
                "A {} message at {} addressed to this connector is ignored: {}{}",
                prefix,
                lsn,
                reason,
                before == 0 ? "" : " (" + before + " more refused since the last warning)");
    }
}
