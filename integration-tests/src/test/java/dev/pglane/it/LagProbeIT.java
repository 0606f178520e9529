package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.bench.Subscriptions;
import dev.pglane.local.bench.sustained.LagProbe;
import dev.pglane.local.bench.sustained.ProbeSample;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * bench-sustained's lag probe between two servers that PostgreSQL's own logical replication joins: every probe row
 * committed on the source is seen on the target after a short, non-zero lag, and a subscriber held back (disabled,
 * then enabled again) shows as lag: each row committed while it was held waited at least until it was let go.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LagProbeIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @Test
    @DisplayName("the probe times each row from its commit on the source until it is visible on a subscriber")
    void theProbeMeasuresTheLagOfASubscriberAndOfOneHeldBack() throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        SqlSession.execute(source, LagProbe.CREATE_TABLE, "CREATE PUBLICATION probe FOR TABLE " + LagProbe.TABLE);
        SqlSession.execute(target, LagProbe.CREATE_TABLE);
        SqlSession.execute(
                target,
                "CREATE SUBSCRIPTION probe CONNECTION '" + Subscriptions.connectionString(source)
                        + "' PUBLICATION probe WITH (copy_data = false)");
        try {
            long start = System.nanoTime();
            long held;
            long released;
            try (LagProbe probe = LagProbe.start(source.open(), target.open())) {
                Waits.until("20 probe rows seen on the target", WAIT, () -> seen(probe, start) >= 20);
                SqlSession.execute(target, "ALTER SUBSCRIPTION probe DISABLE");
                held = System.nanoTime();
                Waits.until(
                        "15 probe rows committed while the subscriber is disabled",
                        WAIT,
                        () -> probe.samples(held, Long.MAX_VALUE, System.nanoTime())
                                        .size()
                                >= 15);
                released = System.nanoTime();
                SqlSession.execute(target, "ALTER SUBSCRIPTION probe ENABLE");
                probe.stopWriting();
                assertTrue(probe.awaitVisible(System.nanoTime(), WAIT), "every probe row reaches the target");

                List<ProbeSample> flowing = probe.samples(start, held, System.nanoTime());
                assertTrue(flowing.size() >= 20, "rows while the subscriber ran: " + flowing.size());
                for (ProbeSample sample : flowing) {
                    assertTrue(
                            sample.seen() && sample.lagSeconds() > 0 && sample.lagSeconds() < 5,
                            "a running subscriber's lag is short and not zero: " + sample);
                }
                // the apply worker stops a moment after DISABLE: the rows from half a second on were surely held
                List<ProbeSample> heldBack = probe.samples(held, released, System.nanoTime()).stream()
                        .filter(s -> s.committedAtSeconds() >= 0.5)
                        .toList();
                assertTrue(heldBack.size() >= 5, "rows committed while held: " + heldBack.size());
                double heldSeconds = (released - held) / 1e9;
                for (ProbeSample sample : heldBack) {
                    assertTrue(
                            sample.lagSeconds() >= heldSeconds - sample.committedAtSeconds(),
                            "a row held back waited at least until the subscriber was enabled again (held "
                                    + heldSeconds + " s): " + sample);
                }
            }
        } finally {
            SqlSession.execute(target, "DROP SUBSCRIPTION IF EXISTS probe");
        }
    }

    @Test
    @DisplayName("a probe row with a companion row counts as visible only once the target shows both")
    void aProbeRowWithACompanionIsVisibleOnlyOnceBothShow() throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String companionTable = "CREATE TABLE probe_companion (id bigint PRIMARY KEY)";
        SqlSession.execute(
                source,
                "DROP TABLE IF EXISTS " + LagProbe.TABLE,
                LagProbe.CREATE_TABLE,
                companionTable,
                "CREATE PUBLICATION companion FOR TABLE " + LagProbe.TABLE);
        SqlSession.execute(target, "DROP TABLE IF EXISTS " + LagProbe.TABLE, LagProbe.CREATE_TABLE, companionTable);
        SqlSession.execute(
                target,
                "CREATE SUBSCRIPTION companion CONNECTION '" + Subscriptions.connectionString(source)
                        + "' PUBLICATION companion WITH (copy_data = false)");
        LagProbe.Companion companion = new LagProbe.Companion(
                "INSERT INTO probe_companion (id) VALUES (?)",
                "SELECT id FROM probe_companion WHERE id > ? ORDER BY id");
        try (LagProbe probe = LagProbe.start(source.open(), target.open(), companion)) {
            Waits.until(
                    "probe rows on the target while their companions are not replicated",
                    WAIT,
                    () -> rows(target, LagProbe.TABLE) >= 10);
            probe.stopWriting();
            long written = System.nanoTime();
            assertFalse(
                    probe.awaitVisible(written, Duration.ofSeconds(2)),
                    "a probe row whose companion row the target lacks is not visible");

            SqlSession.execute(source, "ALTER PUBLICATION companion ADD TABLE probe_companion");
            SqlSession.execute(target, "ALTER SUBSCRIPTION companion REFRESH PUBLICATION WITH (copy_data = true)");
            assertTrue(probe.awaitVisible(written, WAIT), "visible once the companion rows arrived");
            List<ProbeSample> samples = probe.samples(0, written, System.nanoTime());
            assertTrue(samples.size() >= 10 && samples.stream().allMatch(ProbeSample::seen), "samples: " + samples);
        } finally {
            SqlSession.execute(target, "DROP SUBSCRIPTION IF EXISTS companion");
            SqlSession.execute(
                    target, "DROP TABLE IF EXISTS probe_companion", "DROP TABLE IF EXISTS " + LagProbe.TABLE);
            SqlSession.execute(
                    source,
                    "DROP PUBLICATION IF EXISTS companion",
                    "DROP TABLE IF EXISTS probe_companion",
                    "DROP TABLE IF EXISTS " + LagProbe.TABLE);
        }
    }

    private static long rows(PostgresNode node, String table) throws SQLException {
        try (SqlSession session = SqlSession.open(node)) {
            return ((Number) session.queryValue("SELECT count(*) FROM " + table)).longValue();
        }
    }

    private static long seen(LagProbe probe, long since) {
        return probe.samples(since, Long.MAX_VALUE, System.nanoTime()).stream()
                .filter(ProbeSample::seen)
                .count();
    }
}
