package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.verify.ComparisonReport;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One compact pipeline story on every supported major, whatever {@code pglane.pg.versions} says, and across majors
 * both ways (the oldest to the newest and back): existing rows by the snapshot, then inserts, updates of every column
 * kind, deletes and one large transaction, into a target the sink creates; the target ends equal to the source. The
 * heavier stories of the other tests run on the majors of {@code pglane.pg.versions} only, to keep CI within its time.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class EveryMajorIT {
    private static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    /** Each major into itself, then the oldest into the newest and the newest into the oldest. */
    static Stream<Arguments> pairs() {
        PostgresVersion[] all = PostgresVersion.values();
        PostgresVersion oldest = all[0];
        PostgresVersion newest = all[all.length - 1];
        return Stream.concat(
                Arrays.stream(all).map(v -> Arguments.of(v, v)),
                Stream.of(Arguments.of(oldest, newest), Arguments.of(newest, oldest)));
    }

    @ParameterizedTest(name = "PostgreSQL {0} into {1}")
    @MethodSource("pairs")
    void aPipelineOnEveryMajorAndAcrossThem(PostgresVersion from, PostgresVersion to) throws Exception {
        PostgresNode source = servers.of(from);
        PostgresNode target = servers.targetOf(to);
        String name = "major_pg" + from.major() + "_to_pg" + to.major();
        String items = name + ".items";
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + name,
                "CREATE TABLE " + items + " (id bigint PRIMARY KEY, n integer, price numeric(12,3), note text,"
                        + " at timestamptz, day date, doc jsonb, tags text[], flag boolean, uid uuid, raw bytea,"
                        + " span interval)",
                "INSERT INTO " + items + " SELECT g, g, g * 1.125, 'row ' || g, timestamptz '2026-01-01 00:00+00'"
                        + " + g * interval '1 minute', date '2026-01-01' + g, jsonb_build_object('g', g, 'odd',"
                        + " g % 2 = 1), ARRAY['a' || g, 'b'], g % 3 = 0, md5(g::text)::uuid,"
                        + " decode(md5(g::text), 'hex'), g * interval '1 second' FROM generate_series(1, 500) g");
        SqlSession.execute(target, "CREATE SCHEMA " + name);
        Map<String, String> snapshot = Map.of("snapshot.mode", "initial", "snapshot.chunk.rows", "120");
        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, target, name, snapshot, Map.of("apply.workers", "2"))) {
            SqlSession.execute(
                    source,
                    "INSERT INTO " + items + " (id, n, note, doc, tags) SELECT g, g, 'new', '{}', '{}'"
                            + " FROM generate_series(501, 800) g",
                    "UPDATE " + items + " SET price = price * 2, doc = doc || '{\"changed\": true}',"
                            + " tags = tags || 'c'::text, flag = NOT flag, span = span * 2, raw = NULL"
                            + " WHERE id % 7 = 0",
                    "UPDATE " + items + " SET note = NULL, at = NULL, day = day + 1 WHERE id % 11 = 0",
                    "DELETE FROM " + items + " WHERE id % 13 = 0",
                    // one large transaction, many changes in one commit
                    "UPDATE " + items + " SET n = n + 1000");
            run.awaitCatchUp(WAIT);
            ComparisonReport report = run.compare();
            assertTrue(report.isEqual(), () -> "the target differs from the source:\n" + report.summary());
            try (SqlSession session = SqlSession.open(target)) {
                Object rows = session.queryValue("SELECT count(*) FROM " + items);
                assertEquals(800L - 800 / 13, ((Number) rows).longValue());
                assertEquals(
                        String.valueOf(to.major()),
                        session.queryValue("SELECT current_setting('server_version_num')::int / 10000 || ''"),
                        "the target runs the major it was asked for");
            }
        }
    }
}
