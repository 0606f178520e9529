package dev.pglane.sink.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.logging.LogCapture;
import dev.pglane.sink.admit.TableBoundary;
import dev.pglane.sink.admit.TableIncludeList;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Sequence values against a real target: forward only, serial and identity alike, and only where the sink may write. */
class SequenceAdvanceTest {
    @RegisterExtension
    static final TargetServer target = new TargetServer(
            "CREATE SCHEMA shop",
            "CREATE TABLE shop.orders (id serial PRIMARY KEY, note text)",
            "CREATE TABLE shop.lines (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, n int)",
            "CREATE TABLE shop.plain (id int PRIMARY KEY)",
            "CREATE TABLE shop.hidden (id serial PRIMARY KEY)",
            "SELECT setval('shop.orders_id_seq', 500)");

    private static final TableBoundary BOUNDARY = new TableBoundary(
            new TableIncludeList(List.of("shop\\.(orders|lines|plain|gone|margin)")),
            new TableMapping("${schema}.${table}"),
            new TableName("public", "pglane_progress"));

    /** A session as the sink opens it, with its pinned search path. */
    private static Connection session(String user) throws SQLException {
        DatabaseEndpoint admin = target.endpoint();
        return new DatabaseEndpoint(
                        admin.host(), admin.port(), admin.database(), user, null, admin.tls(), admin.connectTimeout())
                .connect("sequence-advance-test");
    }

    private static byte[] message(String entries) {
        return ("{\"sequences\": [" + entries + "]}").getBytes(StandardCharsets.UTF_8);
    }

    private static String entry(String table, String column, long value) {
        return "{\"schema\": \"shop\", \"table\": \"" + table + "\", \"column\": \"" + column + "\", \"last_value\": "
                + value + "}";
    }

    @Test
    void sequencesMoveForwardOnlyAndWhatCannotBeSetIsWarnedOfWithoutFailingTheTransaction() throws SQLException {
        try (Connection c = session("postgres");
                LogCapture log = LogCapture.start()) {
            c.setAutoCommit(false);
            SequenceAdvance advance = new SequenceAdvance(c, BOUNDARY, 0);
            advance.apply(
                    message(String.join(
                            ", ",
                            entry("orders", "id", 120),
                            entry("lines", "id", 42),
                            entry("plain", "id", 7),
                            entry("gone", "id", 9),
                            entry("hidden", "id", 1000))),
                    "shop.messages-0@5");
            c.commit();
            assertEquals(List.of("500"), target.rows("SELECT last_value FROM shop.orders_id_seq"), "never backward");
            assertEquals(List.of("42"), target.rows("SELECT last_value FROM shop.lines_id_seq"));
            assertEquals(List.of("1"), target.rows("SELECT last_value FROM shop.hidden_id_seq"), "outside the list");
            List<String> warnings = log.warnings();
            assertTrue(
                    warnings.stream()
                            .anyMatch(w -> w.contains("shop.plain.id is skipped: the target has no such"
                                    + " column, or it owns no sequence")),
                    warnings::toString);
            assertTrue(warnings.stream().anyMatch(w -> w.contains("shop.gone.id is skipped")), warnings::toString);
            assertTrue(
                    warnings.stream()
                            .anyMatch(w -> w.contains(
                                    "source table shop.hidden is not in the sink's" + " table.include.list")),
                    warnings::toString);

            advance.apply(message(entry("orders", "id", 900) + ", " + entry("lines", "id", 40)), "shop.messages-0@6");
            c.commit();
            assertEquals(List.of("900"), target.rows("SELECT last_value FROM shop.orders_id_seq"));
            assertEquals(List.of("42"), target.rows("SELECT last_value FROM shop.lines_id_seq"), "never backward");
            target.execute("INSERT INTO shop.orders (note) VALUES ('after')", "INSERT INTO shop.lines (n) VALUES (1)");
            assertEquals(List.of("901"), target.rows("SELECT id FROM shop.orders WHERE note = 'after'"));
            assertEquals(List.of("43"), target.rows("SELECT id FROM shop.lines"));
        }
    }

    @Test
    void theMarginComesOnTopOfTheSourcesValue() throws SQLException {
        target.execute("CREATE TABLE shop.margin (id serial PRIMARY KEY)");
        try (Connection c = session("postgres")) {
            new SequenceAdvance(c, BOUNDARY, 1000).apply(message(entry("margin", "id", 42)), "shop.messages-0@10");
        }
        assertEquals(List.of("1042"), target.rows("SELECT last_value FROM shop.margin_id_seq"));
    }

    @Test
    void aMessageThatIsNotJsonIsWarnedOfAndSkipped() throws SQLException {
        try (Connection c = session("postgres");
                LogCapture log = LogCapture.start()) {
            new SequenceAdvance(c, BOUNDARY, 0).apply("not json".getBytes(StandardCharsets.UTF_8), "shop.messages-0@9");
            assertTrue(
                    log.warnings().stream().anyMatch(w -> w.contains("A sequence message at shop.messages-0@9 is not")),
                    log.warnings()::toString);
        }
    }

    @Test
    void aRoleThatMayNotUpdateTheSequenceIsWarnedOf() throws SQLException {
        target.execute(
                "CREATE ROLE no_sequences LOGIN",
                "GRANT USAGE ON SCHEMA shop TO no_sequences",
                "GRANT SELECT ON shop.orders TO no_sequences");
        try (Connection c = session("no_sequences");
                LogCapture log = LogCapture.start()) {
            new SequenceAdvance(c, BOUNDARY, 0).apply(message(entry("orders", "id", 5000)), "shop.messages-0@11");
            assertTrue(
                    log.warnings().stream().anyMatch(w -> w.contains("shop.orders.id is skipped: the role lacks")),
                    log.warnings()::toString);
        }
        assertTrue(Long.parseLong(
                        target.rows("SELECT last_value FROM shop.orders_id_seq").get(0))
                < 5000);
    }
}
