package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.verify.ComparisonReport;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two servers replicating into each other through two pipelines, both sources with {@code origin.filter=none} and
 * both sinks applying under replication origins (their default). One server is the oldest major of the matrix, where
 * the reader drops replicated transactions by their Origin message, the other the newest, where pgoutput leaves them
 * out itself. Each side writes its own keys; each change travels once, to the other side, and never back.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TwoWayReplicationIT {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String TABLE = "twoway.items";
    private static final int ROUNDS = 12;
    private static final int ROWS_PER_ROUND = 25;

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @Test
    @DisplayName("two servers replicating into each other: each change arrives once, nothing loops, both sides equal")
    void writesOnBothSidesTravelOnceAndNeverBack() throws Exception {
        List<PostgresVersion> versions = SourceServers.versions();
        PostgresNode a = servers.of(versions.get(0));
        PostgresNode b = servers.another(versions.get(versions.size() - 1));
        for (PostgresNode server : List.of(a, b)) {
            SqlSession.execute(
                    server,
                    "CREATE SCHEMA twoway",
                    "CREATE TABLE " + TABLE + " (id int PRIMARY KEY, side text NOT NULL, v int NOT NULL)");
        }
        Map<String, String> source = Map.of("table.include.list", "twoway\\..*", "origin.filter", "none");
        Map<String, String> sink = Map.of("apply.workers", "2");
        try (SinkConnectorRun aToB = SinkConnectorRun.start(worker, a, b, "twoway_ab", source, sink);
                SinkConnectorRun bToA = SinkConnectorRun.start(worker, b, a, "twoway_ba", source, sink);
                SqlSession onA = SqlSession.open(a);
                SqlSession onB = SqlSession.open(b)) {
            Written onASide = Written.NONE;
            Written onBSide = Written.NONE;
            for (int round = 0; round < ROUNDS; round++) {
                onASide = onASide.plus(writeRound(onA, "a", 0, round));
                onBSide = onBSide.plus(writeRound(onB, "b", 100_000, round));
            }

            aToB.awaitCatchUp(WAIT);
            bToA.awaitCatchUp(WAIT);
            // what each sink applied is WAL on the other side after those waits began: wait until it is passed too
            CatchUp.Result fromA = aToB.awaitCatchUp(WAIT);
            CatchUp.Result fromB = bToA.awaitCatchUp(WAIT);

            assertEquals(
                    onASide.changes(),
                    fromA.committed().changes(),
                    "A's source sent A's own changes, none that B's sink applied there");
            assertEquals(
                    onBSide.changes(),
                    fromB.committed().changes(),
                    "B's source sent B's own changes, none that A's sink applied there");
            ComparisonReport report = aToB.compare();
            assertTrue(report.isEqual(), () -> "the two servers differ:\n" + report.summary());
            long rows = onASide.inserted() - onASide.deleted() + onBSide.inserted() - onBSide.deleted();
            assertTrue(onASide.deleted() > 0 && onBSide.deleted() > 0, "both sides deleted rows");
            for (SqlSession session : List.of(onA, onB)) {
                assertEquals(rows, ((Number) session.queryValue("SELECT count(*) FROM " + TABLE)).longValue());
            }
        }
    }

    /** Rows one side's statements changed. */
    private record Written(long inserted, long updated, long deleted) {
        static final Written NONE = new Written(0, 0, 0);

        Written plus(Written other) {
            return new Written(inserted + other.inserted, updated + other.updated, deleted + other.deleted);
        }

        long changes() {
            return inserted + updated + deleted;
        }
    }

    /** One round of one side's writes to its own keys, each statement its own transaction. */
    private static Written writeRound(SqlSession session, String side, int keyBase, int round) throws SQLException {
        int first = keyBase + round * ROWS_PER_ROUND + 1;
        int inserted = session.exec("INSERT INTO " + TABLE + " SELECT g, '" + side + "', 0 FROM generate_series("
                + first + ", " + (first + ROWS_PER_ROUND - 1) + ") g");
        session.commit();
        int updated = session.exec(
                "UPDATE " + TABLE + " SET v = v + 1 WHERE side = '" + side + "' AND id % 3 = " + round % 3);
        session.commit();
        int deleted = 0;
        if (round % 4 == 3) {
            deleted = session.exec("DELETE FROM " + TABLE + " WHERE side = '" + side + "' AND id % 10 = " + round % 10);
            session.commit();
        }
        return new Written(inserted, updated, deleted);
    }
}
