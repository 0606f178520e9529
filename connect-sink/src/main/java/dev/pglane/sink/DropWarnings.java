package dev.pglane.sink;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records the assembler drops, told as WARNs: at once for the first of each reason, then at most once a minute per
 * reason with the count since the last. Most drops are harmless and expected (Kafka redelivers after a restart,
 * a source run cut a transaction short and sent it again), but a drop nobody sees could as well be a loss, so each
 * reason is said and counted ({@code dropped-records-total}).
 */
final class DropWarnings {
    private static final Logger log = LoggerFactory.getLogger(DropWarnings.class);
    static final Duration INTERVAL = Duration.ofMinutes(1);

    private final LongSupplier nanoTime;
    private final Map<String, Pending> byReason = new HashMap<>();

    private static final class Pending {
        long records;
        long warnedAtNanos;
        boolean warned;
    }

    DropWarnings() {
        this(System::nanoTime);
    }

    /** For testing: {@code nanoTime} is the clock of the rate limit. */
    DropWarnings(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    synchronized void dropped(String reason, long records) {
        Pending pending = byReason.computeIfAbsent(reason, r -> new Pending());
        pending.records += records;
        long now = nanoTime.getAsLong();
        if (pending.warned && now - pending.warnedAtNanos < INTERVAL.toNanos()) {
            return;
        }
        log.warn(
                "Dropped {} record(s) as {}{}: records that repeat or belong to no transaction the target still needs"
                        + " (see dropped-records-total)",
                pending.records,
                reason,
                pending.warned ? " in the last " + (now - pending.warnedAtNanos) / 1_000_000_000 + " s" : "");
        pending.records = 0;
        pending.warnedAtNanos = now;
        pending.warned = true;
    }
}
