package dev.pglane.sink.flow;

import dev.pglane.sink.assemble.WaitingHead;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says when the next transaction in commit order has waited long for records its END counts. Nothing after it can
 * be applied meanwhile, and the usual cause is one the operator has to fix: a {@code topics} list without one of the
 * source's change topics, or a topic {@code topics.regex} will only pick up at the next metadata refresh. A WARN
 * names the topics and whether the sink consumes them, once the wait passes {@code transaction.wait.warn.ms} and
 * again every time that much longer; {@link #waitedMs} feeds the {@code head-wait-ms} metric.
 *
 * <p>Called on the task thread only.
 */
public final class HeadWait {
    private static final Logger log = LoggerFactory.getLogger(HeadWait.class);

    private final long warnAfterNanos;
    private WaitingHead head;
    private long sinceNanos;
    private long warnedAtNanos;

    public HeadWait(Duration warnAfter) {
        this.warnAfterNanos = warnAfter.toNanos();
    }

    /**
     * @param waiting the assembler's waiting head now
     * @param consumed whether the sink consumes a topic: one of its partitions is assigned
     */
    public void update(Optional<WaitingHead> waiting, Predicate<String> consumed, long nowNanos) {
        if (waiting.isEmpty()) {
            head = null;
            return;
        }
        WaitingHead now = waiting.get();
        if (head == null || head.xid() != now.xid() || head.generation() != now.generation()) {
            head = now;
            sinceNanos = nowNanos;
            warnedAtNanos = nowNanos;
            return;
        }
        head = now;
        if (warnAfterNanos > 0 && nowNanos - warnedAtNanos >= warnAfterNanos) {
            warnedAtNanos = nowNanos;
            warn(now, consumed, nowNanos);
        }
    }

    /** How long the waiting head has waited, 0 if none waits. */
    public long waitedMs(long nowNanos) {
        return head == null ? 0 : (nowNanos - sinceNanos) / 1_000_000;
    }

    private void warn(WaitingHead waiting, Predicate<String> consumed, long nowNanos) {
        Set<String> missing = new TreeSet<>(waiting.missingTopics());
        Set<String> unconsumed =
                missing.stream().filter(consumed.negate()).collect(Collectors.toCollection(TreeSet::new));
        String why = unconsumed.isEmpty()
                ? "their partitions are assigned to this sink, so the records have not arrived yet (a lagging"
                        + " partition, or a source that has not sent them)"
                : "this sink consumes no partition of " + unconsumed + ": add them to topics, or make topics.regex"
                        + " match them (a new topic is picked up at the consumer's next metadata refresh,"
                        + " metadata.max.age.ms)";
        log.warn(
                "{} has waited {} s for its records on {}, and no later transaction can be applied before it: {}",
                waiting.describe(),
                waitedMs(nowNanos) / 1000,
                missing,
                why);
    }
}
