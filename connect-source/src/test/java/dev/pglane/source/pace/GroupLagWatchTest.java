package dev.pglane.source.pace;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class GroupLagWatchTest {
    private static final GroupLagWatch.Settings SETTINGS =
            new GroupLagWatch.Settings("src", "connect-sink", "localhost:9", Duration.ofSeconds(1), Map.of());
    private static final TopicPartition ROWS = new TopicPartition("pglane.public.accounts", 0);

    /** A lag and a committed offset that the test sets, or a reading that fails. */
    private static final class FakeReader implements GroupLagWatch.LagReader {
        final AtomicLong lag = new AtomicLong();
        final AtomicLong committed = new AtomicLong();
        final AtomicBoolean failing = new AtomicBoolean();
        final AtomicBoolean closed = new AtomicBoolean();

        @Override
        public GroupLagWatch.Reading read() {
            if (failing.get()) {
                throw new IllegalStateException("the broker is away");
            }
            return new GroupLagWatch.Reading(lag.get(), Map.of(ROWS, committed.get()));
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }

    @Test
    void holdsWhileTheGroupStopsConsumingWithLagAndGoesOnWhenItCannotBeRead() throws Exception {
        FakeReader reader = new FakeReader();
        reader.lag.set(1_000);
        try (GroupLagWatch watch = GroupLagWatch.start(SETTINGS, reader, Duration.ofMillis(10))) {
            eventually(() -> watch.describe().contains("has 1000 records to consume, not yet timed"));
            assertFalse(watch.holds(0), "without two seconds of history one chunk goes out");
            assertTrue(watch.holds(2_000), "and only one");

            // the group consumes nothing: after two seconds it is behind without end
            eventually(() -> watch.holds(0));
            assertTrue(watch.describe().contains("with nothing consumed for seconds"), watch.describe());

            // it consumes fast: its 1,000 records are well under a second of work
            AtomicLong offset = new AtomicLong();
            eventually(() -> {
                reader.committed.set(offset.incrementAndGet() * 10_000);
                return !watch.holds(0);
            });
            assertTrue(watch.describe().contains("s of what it consumed lately"), watch.describe());
            assertTrue(watch.holds(100_000_000), "chunks already out count");

            reader.lag.set(0);
            reader.failing.set(true);
            eventually(() -> watch.describe().contains("an unknown number of"));
            assertFalse(watch.holds(0));
            assertFalse(watch.holds(2_000), "a lag that cannot be read holds nothing");
        }
        eventually(reader.closed::get);
    }

    /** Polls {@code condition} until it holds, failing after 5 s. */
    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not true within 5 s");
            Thread.sleep(5);
        }
    }
}
