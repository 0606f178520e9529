package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.consistency.ConsistencyWorkload;
import dev.pglane.local.consistency.InvariantChecker;
import dev.pglane.local.consistency.InvariantMonitor;
import dev.pglane.local.consistency.Violation;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker holds the workload's committed states for good and flags each kind of state a faulty sink could
 * leave: damage crafted by hand on a real server (the workload's own tables, filled by a short run), one kind at a
 * time, each named by invariant, table and key.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class InvariantCheckerIT {
    private static final String SCHEMA = "damaged";

    @TempDir
    static Path workDir;

    static PostgresNode server;

    @BeforeAll
    static void startServer() {
        server = PostgresNode.start("checked", PostgresVersion.fromProperty(), workDir, PostgresNode.WalLevel.REPLICA);
    }

    /** The workload's tables in {@code schema}, after three sessions committed transactions there. */
    private static InvariantChecker afterWorkload(String schema, long seed) throws SQLException {
        ConsistencyWorkload workload = new ConsistencyWorkload(server.jdbcUrl(), schema, seed);
        workload.createTables();
        ConsistencyWorkload.Summary summary = workload.runTransactions(3, 100);
        assertTrue(summary.committed() > 150, "the workload committed: " + summary);
        return new InvariantChecker(server.jdbcUrl(), schema);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @DisplayName("the states the workload commits pass, the last one and those checked while sessions run")
    void committedStatesPass() throws SQLException {
        InvariantChecker checker = afterWorkload("passing", 11);
        assertEquals(List.of(), checker.checkOnce().violations());
        try (InvariantMonitor monitor = InvariantMonitor.start(checker, Duration.ofMillis(10))) {
            new ConsistencyWorkload(server.jdbcUrl(), "passing", 12).runTransactions(3, 100);
            monitor.stop();
            assertEquals(0, monitor.violatingChecks(), monitor.describe());
            assertTrue(monitor.distinctStates() > 2, "the checks saw the sessions' progress: " + monitor.describe());
        }
    }

    @Test
    @DisplayName("a missing item, a sequence gap, a wrong sum, a lost tick, an orphan and a stray stamp are each named")
    void craftedViolationsAreFlagged() throws SQLException {
        InvariantChecker checker = afterWorkload(SCHEMA, 13);
        long mark =
                firstLong("SELECT mark_id FROM " + SCHEMA + ".tx_marks WHERE expected_items > 0 ORDER BY 1 LIMIT 1");
        assertFlagged(
                checker,
                "groups",
                "tx_items",
                "mark_id=" + mark,
                "DELETE FROM " + SCHEMA + ".tx_items WHERE mark_id = " + mark + " AND item_no = (SELECT min(item_no)"
                        + " FROM " + SCHEMA + ".tx_items WHERE mark_id = " + mark + ")");
        assertFlagged(
                checker,
                "sessions",
                "tx_log",
                "session=1",
                "DELETE FROM " + SCHEMA + ".tx_log WHERE session = 1 AND seq = 2");
        assertFlagged(
                checker,
                "transfers",
                "accounts",
                "all rows",
                "UPDATE " + SCHEMA + ".accounts SET balance = balance + 1 WHERE id = 3");
        assertFlagged(
                checker,
                "clock",
                "clock_log",
                "tick<=",
                "DELETE FROM " + SCHEMA + ".clock_log WHERE tick = (SELECT max(tick) FROM " + SCHEMA + ".clock_log)");
        assertFlagged(
                checker,
                "groups",
                "tx_tags",
                "mark_id=7",
                "SET session_replication_role = replica", // as a sink applies: no foreign key checks
                "INSERT INTO " + SCHEMA + ".tx_tags VALUES (7, 7, 'orphan')");
        assertFlagged(
                checker,
                "stamps",
                "tx_marks",
                "mark_id=8",
                "INSERT INTO " + SCHEMA + ".tx_marks VALUES (8, 99, 1, 0, 0)");
    }

    /**
     * A group's checker checks only the invariants within the group: a log row missing (the sessions invariant) is
     * another group's affair for the money group, whose state still moves; a wrong sum is its own.
     */
    @Test
    @DisplayName("a table group's checker flags what lies within the group and nothing that spans groups")
    void aGroupsCheckerChecksItsOwnInvariantsOnly() throws SQLException {
        afterWorkload("grouped", 17);
        InvariantChecker money = InvariantChecker.ofGroup(server.jdbcUrl(), "grouped", Set.of("accounts", "docs"));
        long before = money.checkOnce().loggedTransactions();
        execute("DELETE FROM grouped.tx_log WHERE session = 1 AND seq = 2");
        assertEquals(List.of(), money.checkOnce().violations(), "the log is the log group's");
        execute("UPDATE grouped.accounts SET balance = balance + 1 WHERE id = 3");
        InvariantChecker.Check after = money.checkOnce();
        assertEquals(
                List.of("transfers"),
                after.violations().stream().map(Violation::invariant).toList());
        assertTrue(after.loggedTransactions() != before, "the group's fingerprint moves with its rows");
    }

    private static void execute(String sql) throws SQLException {
        try (Connection connection = server.open();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Runs {@code damage}, then expects a violation of {@code invariant} on {@code table} at a key. */
    private static void assertFlagged(
            InvariantChecker checker, String invariant, String table, String keyPrefix, String... damage)
            throws SQLException {
        try (Connection connection = server.open();
                Statement statement = connection.createStatement()) {
            for (String sql : damage) {
                statement.execute(sql);
            }
        }
        List<Violation> violations = checker.checkOnce().violations();
        assertTrue(
                violations.stream()
                        .anyMatch(v -> v.invariant().equals(invariant)
                                && v.table().equals(SCHEMA + "." + table)
                                && v.key().startsWith(keyPrefix)),
                "expected a " + invariant + " violation on " + table + " at " + keyPrefix + ", got " + violations);
    }

    private static long firstLong(String sql) throws SQLException {
        try (Connection connection = server.open();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(sql)) {
            assertTrue(rs.next(), "no row from " + sql);
            return rs.getLong(1);
        }
    }
}
