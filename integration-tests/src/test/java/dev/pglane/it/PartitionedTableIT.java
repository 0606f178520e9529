package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.verify.ComparisonReport;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A partitioned table through the whole pipeline, with the default {@code publication.via.partition.root}: its
 * existing rows arrive by the snapshot, read through the root; its changes arrive as the root's, whichever partition
 * holds the row, rows moving between partitions included; partitions created and attached while the connector runs
 * are captured with it; and the target, created by the sink, holds one table, equal to the source's.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PartitionedTableIT {
    private static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.SourceServers#versions")
    @DisplayName("a partitioned table is one topic and one target table: snapshot, changes, moves between partitions"
            + " and partitions added while streaming end equal to the source")
    void aPartitionedTableIsOneTableOnTheWayThrough(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "parts_pg" + version.major();
        String readings = name + ".readings";
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + name,
                "CREATE TABLE " + readings + " (region text, id bigint, v integer NOT NULL, note text,"
                        + " PRIMARY KEY (region, id)) PARTITION BY LIST (region)",
                "CREATE TABLE " + readings + "_eu PARTITION OF " + readings + " FOR VALUES IN ('eu')",
                "CREATE TABLE " + readings + "_us PARTITION OF " + readings + " FOR VALUES IN ('us')",
                "INSERT INTO " + readings + " SELECT CASE WHEN g % 2 = 0 THEN 'eu' ELSE 'us' END, g, g, 'seed'"
                        + " FROM generate_series(1, 2000) g");
        SqlSession.execute(target, "CREATE SCHEMA " + name);

        Map<String, String> snapshot = Map.of("snapshot.mode", "initial", "snapshot.chunk.rows", "300");
        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, target, name, snapshot, Map.of("apply.workers", "2"))) {
            SqlSession.execute(
                    source,
                    "INSERT INTO " + readings + " SELECT 'eu', g, g, 'new' FROM generate_series(2001, 2100) g",
                    "UPDATE " + readings + " SET v = v + 1 WHERE id % 10 = 0",
                    // the partition key: each row leaves its partition for the other one
                    "UPDATE " + readings + " SET region = CASE region WHEN 'eu' THEN 'us' ELSE 'eu' END,"
                            + " note = 'moved' WHERE id % 7 = 0",
                    "DELETE FROM " + readings + " WHERE id % 11 = 0",
                    "CREATE TABLE " + readings + "_asia PARTITION OF " + readings + " FOR VALUES IN ('asia')",
                    "INSERT INTO " + readings + " SELECT 'asia', g, g, 'new' FROM generate_series(3001, 3050) g",
                    "UPDATE " + readings + " SET region = 'asia', note = 'moved' WHERE region = 'us' AND id % 13 = 0",
                    "CREATE TABLE " + readings + "_sa (LIKE " + readings + " INCLUDING ALL)",
                    "ALTER TABLE " + readings + " ATTACH PARTITION " + readings + "_sa FOR VALUES IN ('sa')",
                    "INSERT INTO " + readings + " SELECT 'sa', g, g, 'new' FROM generate_series(4001, 4050) g",
                    "UPDATE " + readings + " SET region = 'sa', note = 'moved' WHERE region = 'asia' AND id % 2 = 0");
            run.awaitCatchUp(WAIT);
            ComparisonReport report = run.compare();
            assertTrue(report.isEqual(), () -> "the target differs from the source:\n" + report.summary());
            try (SqlSession session = SqlSession.open(target)) {
                assertEquals(
                        "readings",
                        session.queryValue("SELECT string_agg(tablename, ',') FROM pg_catalog.pg_tables"
                                + " WHERE schemaname = '" + name + "'"),
                        "the sink created the root alone: no partition came as a table of its own");
            }
            try (SqlSession session = SqlSession.open(source)) {
                Object moved = session.queryValue("SELECT count(*) FROM " + readings + "_sa WHERE note = 'moved'");
                assertTrue(((Number) moved).longValue() > 0, "rows moved into the attached partition: " + moved);
            }
        }
    }
}
