package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.ConnectorStatus;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Debezium ecosystem's own consumers read pglane's change topics, keyed by row ({@code record.key=row}): Debezium's
 * JDBC sink connector, from Maven Central, applies them to a third database as Debezium's own records, once on the
 * envelopes and once flattened by Debezium's {@code ExtractNewRecordState}, with upserts by record key and deletes
 * from deletes and tombstones. pglane's own sink rebuilds the source's transactions from the same topics. Intervals
 * travel as Debezium's own source sends them by default ({@code interval.handling.mode=numeric}). All three databases
 * end equal to the source, table by table.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DebeziumConsumersIT {
    private static final String JDBC_SINK = "io.debezium.connector.jdbc.JdbcSinkConnector";
    private static final Duration CAUGHT_UP = Duration.ofSeconds(120);
    private static final String NAME = "dbz_consumers";
    private static final String PGLANE_SINK = "pglane_row_keyed";
    /** Each table with the columns compared and the key they are ordered by. */
    private static final Map<String, String> TABLES = Map.of(
            // an interval as its seconds: Debezium's JDBC sink writes MicroDuration as seconds, '26:03:04' for
            // '1 day 02:03:04', the same length
            "orders", "SELECT id, note, amount, done, due, extract(epoch FROM wait) FROM %s ORDER BY id",
            "lines", "SELECT order_id, line, qty FROM %s ORDER BY order_id, line",
            "audit", "SELECT id, what FROM %s ORDER BY id");

    @RegisterExtension
    static final SharedWorker worker = SharedWorker.withThirdPartyPlugins();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @Test
    @DisplayName("Debezium's JDBC sink, on the envelopes and behind ExtractNewRecordState, ends equal to the source")
    void debeziumsJdbcSinkAppliesPglanesTopics() throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode third = servers.targetOf(version);
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + NAME,
                "CREATE TABLE " + NAME + ".orders (id int PRIMARY KEY, note text, amount numeric(10,2),"
                        + " done boolean, due date, wait interval)",
                "CREATE TABLE " + NAME + ".lines (order_id int, line int, qty int, PRIMARY KEY (order_id, line))",
                "CREATE TABLE " + NAME + ".audit (id bigint PRIMARY KEY, what text)",
                "ALTER TABLE " + NAME + ".audit REPLICA IDENTITY FULL");
        SqlSession.execute(third, "CREATE DATABASE dbz_envelopes", "CREATE DATABASE dbz_flattened");
        Map<String, String> sourceSettings = Map.of(
                "table.include.list", NAME + "\\..*",
                "record.key", "row",
                "tombstones.on.delete", "true",
                // Debezium's default: its JDBC sink takes MicroDuration, and fails on ISO-8601 interval strings
                "interval.handling.mode", "numeric");
        try (SourceConnectorRun run = SourceConnectorRun.start(worker, source, NAME, sourceSettings)) {
            // on the envelopes, tables named by the source block, as users of Debezium's own topics often do
            worker.rest()
                    .putConnectorConfig(
                            "dbz_envelopes",
                            jdbcSink(third, "dbz_envelopes", Map.of("collection.name.format", "${source.table}")));
            // flattened, with the transformation's defaults: a flattened record has no source block, so its table is
            // named after its topic (the sink's default)
            worker.rest()
                    .putConnectorConfig(
                            "dbz_flattened",
                            jdbcSink(
                                    third,
                                    "dbz_flattened",
                                    Map.of(
                                            "transforms",
                                            "unwrap",
                                            "transforms.unwrap.type",
                                            "io.debezium.transforms.ExtractNewRecordState")));
            worker.rest().awaitConnectorRunning("dbz_envelopes", Duration.ofSeconds(60));
            worker.rest().awaitConnectorRunning("dbz_flattened", Duration.ofSeconds(60));

            int transactions = load(source, new Random(20261204));
            // and pglane's own sink, which rebuilds the transactions from the same row-keyed topics
            PostgresNode pglaneTarget = servers.another(version);
            SqlSession.execute(pglaneTarget, "CREATE SCHEMA " + NAME);
            worker.rest().putConnectorConfig(PGLANE_SINK, pglaneSink(pglaneTarget));
            worker.rest().awaitConnectorRunning(PGLANE_SINK, Duration.ofSeconds(60));

            List<Replica> replicas = List.of(
                    new Replica("dbz_envelopes", third, "dbz_envelopes", table -> table),
                    new Replica("dbz_flattened", third, "dbz_flattened", DebeziumConsumersIT::topicTable),
                    new Replica(PGLANE_SINK, pglaneTarget, null, table -> NAME + "." + table));
            for (Replica replica : replicas) {
                try {
                    Waits.until(replica.name() + " equals the source", CAUGHT_UP, () -> sameRows(source, replica));
                } catch (IllegalStateException timedOut) {
                    // the tables' differences, asserted below, say more than the timeout
                }
                for (Map.Entry<String, String> table : TABLES.entrySet()) {
                    assertEquals(
                            rows(source, null, String.format(table.getValue(), NAME + "." + table.getKey())),
                            replica.rows(table),
                            replica.name() + "." + table.getKey() + " after " + transactions + " transactions; sink "
                                    + worker.rest().status(replica.name()).describe());
                }
            }
            assertTrue(
                    rows(source, null, "SELECT id FROM " + NAME + ".orders WHERE id > 100000")
                                    .size()
                            > 0,
                    "some orders moved to a new key");
        } finally {
            for (String sink : List.of("dbz_envelopes", "dbz_flattened", PGLANE_SINK)) {
                worker.rest().deleteConnector(sink);
            }
        }
    }

    /**
     * Every type of the every-type table, a table each, through Debezium's JDBC sink set up as a Debezium user would:
     * which arrive as they are, which arrive changed, and which it refuses. A refused record fails the sink's task
     * for good whatever {@code errors.tolerance} says, so the test drops that type's topic and goes on, as a user
     * would have to.
     */
    @Test
    @DisplayName("which types Debezium's JDBC sink takes from pglane's topics")
    void whichTypesDebeziumsJdbcSinkTakes() throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode third = servers.targetOf(version);
        String name = "dbz_types";
        String sink = name + "_sink";
        List<TypeCase> cases = TypeCases.all();
        createTypeTables(source, third, name, cases);
        Map<String, String> sourceSettings =
                Map.of("table.include.list", name + "\\..*", "record.key", "row", "interval.handling.mode", "numeric");
        Map<String, String> refused = new TreeMap<>();
        try (SourceConnectorRun run = SourceConnectorRun.start(worker, source, name, sourceSettings)) {
            Map<String, String> config = jdbcSink(third, name, Map.of("collection.name.format", "${source.table}"));
            config.put("topics", topicsOf(name, cases, refused));
            worker.rest().putConnectorConfig(sink, config);
            worker.rest().awaitConnectorRunning(sink, Duration.ofSeconds(60));
            insertLiterals(source, name, cases);
            Waits.until("every type arrives or is refused", CAUGHT_UP, () -> {
                ConnectorStatus status = worker.rest().status(sink);
                if (status.hasFailed()) {
                    java.util.regex.Matcher table = java.util.regex.Pattern.compile(
                                    "Failed to flush records for table '(c_\\w+)'")
                            .matcher(status.describe() + status.tasks().get(0).trace());
                    assertTrue(table.find(), "the sink names the table it could not write: " + status.describe());
                    java.util.regex.Matcher error = java.util.regex.Pattern.compile("ERROR: ([^\\n]*)")
                            .matcher(status.tasks().get(0).trace());
                    if (!refused.containsKey(table.group(1))) {
                        refused.put(table.group(1), error.find() ? error.group(1) : "refused");
                        config.put("topics", topicsOf(name, cases, refused));
                        worker.rest().putConnectorConfig(sink, config);
                        worker.rest().restartConnectorAndTasks(sink);
                    }
                    return false;
                }
                return cases.stream()
                        .filter(c -> !refused.containsKey(c.column()))
                        .allMatch(c -> rowCount(third, name, c.column())
                                == c.literals().size());
            });
        } finally {
            worker.rest().deleteConnector(sink);
        }
        Map<String, String> outcome = new TreeMap<>();
        for (TypeCase c : cases) {
            outcome.put(
                    c.sqlType(),
                    refused.containsKey(c.column())
                            ? "refused: " + refused.get(c.column())
                            : arrival(source, third, name, c.column()));
        }
        System.out.println("Debezium's JDBC sink " + outcome);
        assertEquals(
                Set.of("bit(10)", "date", "date[]", "numeric(5,1)[]", "point", "time(6)", "timestamptz"),
                typesThat(outcome, "refused"),
                "refused (docs/formats.md lists them)");
        assertEquals(
                Set.of(
                        "bit(1)",
                        "double precision",
                        "hstore",
                        "integer[]",
                        "integer[][]",
                        "interval",
                        "money",
                        "numeric",
                        "numeric(10,2)",
                        "real",
                        "timestamp",
                        "timestamp(6)",
                        "xid8"),
                typesThat(outcome, "changed"),
                "changed (docs/formats.md lists them)");
    }

    private static Set<String> typesThat(Map<String, String> outcome, String kind) {
        return outcome.entrySet().stream()
                .filter(e -> e.getValue().startsWith(kind))
                .map(Map.Entry::getKey)
                .collect(java.util.stream.Collectors.toSet());
    }

    /** A table {@code name.<column>} per case on the source, and the cases' types in database {@code name}. */
    private static void createTypeTables(PostgresNode source, PostgresNode third, String name, List<TypeCase> cases)
            throws SQLException {
        SinkReplicationIT.createTypes(source);
        List<String> tables = new ArrayList<>(List.of("CREATE SCHEMA " + name));
        cases.forEach(c ->
                tables.add("CREATE TABLE " + name + "." + c.column() + " (id int PRIMARY KEY, v " + c.sqlType() + ")"));
        SqlSession.execute(source, tables.toArray(String[]::new));
        SqlSession.execute(third, "CREATE DATABASE " + name);
        try (Connection connection = third.open(name);
                Statement statement = connection.createStatement()) {
            for (String prerequisite : TypeCases.prerequisites()) {
                statement.execute(prerequisite);
            }
        }
    }

    /** Each case's literals into its table, in one transaction. */
    private static void insertLiterals(PostgresNode source, String name, List<TypeCase> cases) throws SQLException {
        try (SqlSession session = SqlSession.open(source)) {
            for (TypeCase c : cases) {
                for (int row = 0; row < c.literals().size(); row++) {
                    String literal = c.literals().get(row);
                    session.exec("INSERT INTO " + name + "." + c.column() + " VALUES (" + (row + 1) + ", "
                            + (literal == null ? "NULL" : literal) + ")");
                }
            }
            session.commit();
        }
    }

    private static String topicsOf(String name, List<TypeCase> cases, Map<String, String> refused) {
        return String.join(
                ",",
                cases.stream()
                        .filter(c -> !refused.containsKey(c.column()))
                        .map(c -> name + "." + name + "." + c.column())
                        .toList());
    }

    /** Rows of {@code table} in database {@code database} of {@code node}; -1 while it does not exist. */
    private static long rowCount(PostgresNode node, String database, String table) {
        try {
            return Long.parseLong(
                    rows(node, database, "SELECT count(*) FROM " + table).get(0).get(0));
        } catch (SQLException e) {
            return -1;
        }
    }

    /** "as is" or "changed: ..." : the rows as the types print them, on the third database against the source's. */
    private static String arrival(PostgresNode source, PostgresNode third, String schema, String table)
            throws SQLException {
        String query = "SELECT id, format('%s', v) FROM ";
        List<List<String>> expected = rows(source, null, query + schema + "." + table + " ORDER BY id");
        List<List<String>> actual = rows(third, schema, query + table + " ORDER BY id");
        return actual.equals(expected) ? "as is" : "changed: " + actual + " for " + expected;
    }

    /** Debezium's JDBC sink as its documentation configures it for Debezium's PostgreSQL topics. */
    private static Map<String, String> jdbcSink(PostgresNode third, String database, Map<String, String> more) {
        Map<String, String> config = new HashMap<>();
        config.put("connector.class", JDBC_SINK);
        config.put("tasks.max", "1");
        // named, not a regex: a consumer learns of a new topic matching a pattern only at its next metadata refresh
        config.put(
                "topics",
                String.join(
                        ",",
                        TABLES.keySet().stream()
                                .map(t -> NAME + "." + NAME + "." + t)
                                .toList()));
        config.put("connection.url", third.jdbcUrlOf(database));
        config.put("connection.username", third.user());
        config.put("connection.password", third.password());
        config.put("insert.mode", "upsert");
        config.put("delete.enabled", "true");
        config.put("primary.key.mode", "record_key");
        config.put("schema.evolution", "basic");
        config.putAll(more);
        return config;
    }

    /**
     * Transactions of inserts, updates, deletes and key moves over the three tables; returns how many ran. Keys are
     * drawn from a small range, so rows come and go and come back.
     */
    private static int load(PostgresNode source, Random random) throws SQLException {
        int transactions = 0;
        try (SqlSession session = SqlSession.open(source)) {
            for (int i = 0; i < 300; i++) {
                int id = random.nextInt(60);
                switch (random.nextInt(6)) {
                    case 0, 1 ->
                        session.exec(
                                "INSERT INTO " + NAME + ".orders VALUES (?, ?, ?, ?, DATE '2024-01-01' + ?,"
                                        + " make_interval(days => ?, secs => ?)) ON CONFLICT (id) DO UPDATE"
                                        + " SET note = EXCLUDED.note, amount = EXCLUDED.amount, wait = EXCLUDED.wait",
                                id,
                                "order " + i,
                                new java.math.BigDecimal(random.nextInt(100_000)).movePointLeft(2),
                                random.nextBoolean(),
                                random.nextInt(400),
                                random.nextInt(40),
                                random.nextInt(200_000) - 20_000);
                    case 2 -> {
                        session.exec("DELETE FROM " + NAME + ".orders WHERE id = ?", id);
                        session.exec("DELETE FROM " + NAME + ".lines WHERE order_id = ?", id);
                    }
                    case 3 ->
                        session.exec(
                                "UPDATE " + NAME + ".orders SET id = ?, note = 'moved' WHERE id = ?", 100_000 + i, id);
                    case 4 ->
                        session.exec(
                                "INSERT INTO " + NAME + ".lines VALUES (?, ?, ?)"
                                        + " ON CONFLICT (order_id, line) DO UPDATE SET qty = " + NAME
                                        + ".lines.qty + 1",
                                id,
                                random.nextInt(3),
                                random.nextInt(10));
                    default -> {
                        session.exec(
                                "INSERT INTO " + NAME + ".audit VALUES (?, ?)"
                                        + " ON CONFLICT (id) DO UPDATE SET what = EXCLUDED.what",
                                (long) id,
                                "seen " + i);
                        if (random.nextBoolean()) {
                            session.exec("DELETE FROM " + NAME + ".audit WHERE id = ?", (long) random.nextInt(60));
                        }
                    }
                }
                session.commit();
                transactions++;
            }
        }
        return transactions;
    }

    /** A database a sink applies the source's tables to, and the name it gives each table there. */
    private record Replica(String name, PostgresNode node, String database, UnaryOperator<String> table) {
        List<List<String>> rows(Map.Entry<String, String> query) throws SQLException {
            return DebeziumConsumersIT.rows(
                    node, database, String.format(query.getValue(), table.apply(query.getKey())));
        }
    }

    private static boolean sameRows(PostgresNode source, Replica replica) {
        try {
            for (Map.Entry<String, String> table : TABLES.entrySet()) {
                if (!rows(source, null, String.format(table.getValue(), NAME + "." + table.getKey()))
                        .equals(replica.rows(table))) {
                    return false;
                }
            }
            return true;
        } catch (SQLException e) {
            return false; // a table the sink has not created yet
        }
    }

    /** The table Debezium's JDBC sink names after a topic, {@code <prefix>.<schema>.<table>}. */
    private static String topicTable(String table) {
        return (NAME + "." + NAME + "." + table).replace('.', '_');
    }

    /** pglane's sink as the example configures it, on the source's topics. */
    private static Map<String, String> pglaneSink(PostgresNode target) {
        Map<String, String> config =
                ConnectorConfigs.forSink(target, worker.bootstrapServers()).load(ConnectorConfigs.SINK_JSON);
        config.put("name", PGLANE_SINK);
        config.put("source.topic.prefix", NAME);
        config.put("topics.regex", NAME + "\\..*");
        config.put("conflict.policy", "error");
        config.put("auto.create", "true");
        return config;
    }

    /** Every row as the text of its columns; {@code database} null for the node's own. */
    private static List<List<String>> rows(PostgresNode node, String database, String query) throws SQLException {
        try (Connection connection = database == null ? node.open() : node.open(database);
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(query)) {
            ResultSetMetaData meta = rs.getMetaData();
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int c = 1; c <= meta.getColumnCount(); c++) {
                    row.add(rs.getString(c));
                }
                rows.add(row);
            }
            return rows;
        }
    }
}
