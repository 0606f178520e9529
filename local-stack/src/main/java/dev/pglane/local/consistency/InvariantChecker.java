package dev.pglane.local.consistency;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Checks, in one REPEATABLE READ snapshot of the target, the invariants that every committed state of the
 * {@link ConsistencyWorkload}'s source keeps (see {@link ConsistencySchema}). A sink that exposed part of a
 * transaction, or transactions out of the source's commit order, shows a state that breaks one:
 *
 * <ul>
 *   <li>transfers: the accounts are all there and their balances sum to {@link ConsistencySchema#totalBalance()};
 *   <li>groups: every mark has exactly the items and tags it counts, and no item or tag lacks its mark;
 *   <li>sessions: each session's logged stamps are exactly 1..n, n its {@code session_seq} row (a prefix of its
 *       transactions, no gap);
 *   <li>clock: the logged ticks are exactly 1..n, n the {@code clock} row (a prefix of the clock's commit order);
 *   <li>stamps: every row stamped by a transaction (accounts, marks, ticks) has that transaction's log row.
 * </ul>
 *
 * <p>Each check names at most {@value #LIMIT} rows. Not thread-safe: one checker per thread.
 */
public final class InvariantChecker {
    private static final int LIMIT = 5;

    private final String jdbcUrl;
    private final ConsistencySchema schema;
    /** The tables of the one group checked; null for all of them. */
    private final Set<String> group;

    /**
     * What one check found.
     *
     * @param loggedTransactions the transactions logged in the snapshot: how far the target was (for a group without
     *     the log, a fingerprint of its rows, see {@link #ofGroup})
     * @param violations empty when every invariant held
     */
    public record Check(long loggedTransactions, List<Violation> violations) {}

    /** @param targetJdbcUrl the target, credentials in the URL; the tables are in {@code schema} */
    public InvariantChecker(String targetJdbcUrl, String schema) {
        this(targetJdbcUrl, schema, null);
    }

    private InvariantChecker(String targetJdbcUrl, String schema, Set<String> group) {
        this.jdbcUrl = targetJdbcUrl;
        this.schema = new ConsistencySchema(schema);
        this.group = group;
    }

    /**
     * A checker of the invariants that lie within one table group, for a sink that applies only {@code tables}
     * (names without the schema): a group is consistent on its own, while a transaction that spans groups becomes
     * visible group by group, so an invariant that reads tables of two groups may not hold between two commits.
     * Without {@code tx_log} in the group, {@link Check#loggedTransactions()} is a fingerprint of the group's rows
     * instead (the sum of their {@code xmin}), which moves with every transaction applied to them.
     */
    public static InvariantChecker ofGroup(String targetJdbcUrl, String schema, Set<String> tables) {
        return new InvariantChecker(targetJdbcUrl, schema, Set.copyOf(tables));
    }

    /** Whether the group holds every one of {@code tables}; every invariant is checked without a group. */
    private boolean covers(String... tables) {
        return group == null || group.containsAll(List.of(tables));
    }

    /** Checks every invariant in one snapshot. */
    public Check checkOnce() throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            try (Statement statement = connection.createStatement()) {
                List<Violation> violations = new ArrayList<>();
                if (covers("accounts")) {
                    transfers(statement, violations);
                }
                for (String members : List.of("tx_items", "tx_tags")) {
                    if (covers("tx_marks", members)) {
                        groups(statement, violations, members, "expected_" + members.substring(3));
                    }
                }
                if (covers("session_seq", "tx_log")) {
                    sessions(statement, violations);
                }
                if (covers("clock", "clock_log")) {
                    clock(statement, violations);
                }
                for (String stamped : List.of("accounts", "tx_marks", "clock_log")) {
                    if (covers(stamped, "tx_log")) {
                        stamps(statement, violations, stamped);
                    }
                }
                long logged = covers("tx_log")
                        ? single(statement, "SELECT count(*) FROM " + schema.table("tx_log"))
                        : fingerprint(statement);
                connection.commit();
                return new Check(logged, List.copyOf(violations));
            }
        }
    }

    /** The sum of the group's rows' {@code xmin}: a state of the group, as it changes with each transaction. */
    private long fingerprint(Statement statement) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT coalesce(sum(x), 0) FROM (");
        String union = "";
        for (String table : group) {
            sql.append(union).append("SELECT xmin::text::bigint AS x FROM ").append(schema.table(table));
            union = " UNION ALL ";
        }
        return single(statement, sql.append(") rows").toString());
    }

    private void transfers(Statement statement, List<Violation> violations) throws SQLException {
        String accounts = schema.table("accounts");
        try (ResultSet rs = statement.executeQuery("SELECT count(*), coalesce(sum(balance), 0) FROM " + accounts)) {
            rs.next();
            long rows = rs.getLong(1);
            long sum = rs.getLong(2);
            if (rows != ConsistencySchema.ACCOUNTS || sum != ConsistencySchema.totalBalance()) {
                violations.add(new Violation(
                        "transfers",
                        accounts,
                        "all rows",
                        "balances sum to " + sum + " over " + rows + " accounts; every committed state has "
                                + ConsistencySchema.totalBalance() + " over " + ConsistencySchema.ACCOUNTS));
            }
        }
    }

    /** Marks whose count of {@code members} is not the one they say, and members without their mark. */
    private void groups(Statement statement, List<Violation> violations, String members, String expected)
            throws SQLException {
        String marks = schema.table("tx_marks");
        String table = schema.table(members);
        query(
                statement,
                "SELECT m.mark_id, m." + expected + ", coalesce(c.n, 0) FROM " + marks
                        + " m LEFT JOIN (SELECT mark_id, count(*) AS n FROM " + table
                        + " GROUP BY mark_id) c USING (mark_id) WHERE m." + expected + " <> coalesce(c.n, 0)"
                        + " ORDER BY 1 LIMIT " + LIMIT,
                rs -> violations.add(new Violation(
                        "groups",
                        table,
                        "mark_id=" + rs.getLong(1),
                        "the mark counts " + rs.getLong(2) + " " + members + " rows, the target has "
                                + rs.getLong(3))));
        query(
                statement,
                "SELECT mark_id, count(*) FROM " + table + " t WHERE NOT EXISTS (SELECT 1 FROM " + marks
                        + " m WHERE m.mark_id = t.mark_id) GROUP BY 1 ORDER BY 1 LIMIT " + LIMIT,
                rs -> violations.add(new Violation(
                        "groups",
                        table,
                        "mark_id=" + rs.getLong(1),
                        rs.getLong(2) + " rows without their mark in " + marks)));
    }

    private void sessions(Statement statement, List<Violation> violations) throws SQLException {
        String log = schema.table("tx_log");
        query(
                statement,
                "SELECT session, s.n, coalesce(l.c, 0), l.m FROM " + schema.table("session_seq")
                        + " s FULL JOIN (SELECT session, count(*) AS c, max(seq) AS m FROM " + log
                        + " GROUP BY session) l USING (session) WHERE s.n IS DISTINCT FROM l.m"
                        + " OR coalesce(l.c, 0) IS DISTINCT FROM s.n ORDER BY 1 LIMIT " + LIMIT,
                rs -> violations.add(new Violation(
                        "sessions",
                        log,
                        "session=" + rs.getInt(1),
                        "session_seq.n is " + rs.getObject(2) + ", the log holds " + rs.getLong(3) + " stamps up to "
                                + rs.getObject(4) + ": not exactly 1..n")));
    }

    private void clock(Statement statement, List<Violation> violations) throws SQLException {
        String log = schema.table("clock_log");
        long clock = single(statement, "SELECT n FROM " + schema.table("clock") + " WHERE id = 1");
        try (ResultSet rs = statement.executeQuery("SELECT count(*), coalesce(max(tick), 0) FROM " + log)) {
            rs.next();
            long ticks = rs.getLong(1);
            long last = rs.getLong(2);
            if (ticks != clock || last != clock) {
                violations.add(new Violation(
                        "clock",
                        log,
                        "tick<=" + Math.max(clock, last),
                        "the clock is at " + clock + ", the log holds " + ticks + " ticks up to " + last
                                + ": not exactly 1..clock"));
            }
        }
    }

    /** Rows of {@code table} stamped by a transaction whose log row is not there. */
    private void stamps(Statement statement, List<Violation> violations, String table) throws SQLException {
        String qualified = schema.table(table);
        boolean accounts = table.equals("accounts");
        String session = accounts ? "last_session" : "session";
        String seq = accounts ? "last_seq" : "seq";
        String key = switch (table) {
            case "accounts" -> "id";
            case "tx_marks" -> "mark_id";
            default -> "tick";
        };
        query(
                statement,
                "SELECT r." + key + ", r." + session + ", r." + seq + " FROM " + qualified + " r WHERE r." + session
                        + " IS NOT NULL AND NOT EXISTS (SELECT 1 FROM " + schema.table("tx_log") + " l WHERE"
                        + " l.session = r." + session + " AND l.seq = r." + seq + ") ORDER BY 1 LIMIT " + LIMIT,
                rs -> violations.add(new Violation(
                        "stamps",
                        qualified,
                        key + "=" + rs.getLong(1),
                        "written by session " + rs.getInt(2) + "'s transaction " + rs.getLong(3)
                                + ", whose log row is not there: part of a transaction")));
    }

    @FunctionalInterface
    private interface RowHandler {
        void accept(ResultSet row) throws SQLException;
    }

    private static void query(Statement statement, String sql, RowHandler handler) throws SQLException {
        try (ResultSet rs = statement.executeQuery(sql)) {
            while (rs.next()) {
                handler.accept(rs);
            }
        }
    }

    private static long single(Statement statement, String sql) throws SQLException {
        try (ResultSet rs = statement.executeQuery(sql)) {
            if (!rs.next()) {
                throw new IllegalStateException("no row from " + sql);
            }
            return rs.getLong(1);
        }
    }
}
