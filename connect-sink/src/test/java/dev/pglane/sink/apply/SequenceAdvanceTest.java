package dev.pglane.sink.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.logging.LogCapture;
import dev.pglane.sink.admit.ConsumedTopics;
import dev.pglane.sink.admit.SequenceBoundary;
import dev.pglane.sink.admit.TableBoundary;
import dev.pglane.sink.admit.TableIncludeList;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.TopicNames;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sequence values against a real target: forward only, serial and identity alike, only where the sink may write and
 * whose change topic it consumes, clamped to the sequence's bounds, set only once their transaction committed, and
 * never a reason for a transaction to fail.
 */
class SequenceAdvanceTest {
    @RegisterExtension
    static final TargetServer target = new TargetServer(
            "CREATE SCHEMA shop",
            "CREATE TABLE shop.orders (id serial PRIMARY KEY, note text)",
            "CREATE TABLE shop.lines (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, n int)",
            "CREATE TABLE shop.plain (id int PRIMARY KEY)",
            "CREATE TABLE shop.hidden (id serial PRIMARY KEY)",
            "CREATE TABLE shop.small (id serial PRIMARY KEY)",
            "CREATE TABLE shop.wide (id bigserial PRIMARY KEY)",
            "CREATE TABLE shop.unsubscribed (id serial PRIMARY KEY)",
            "CREATE TABLE shop.rolled (id serial PRIMARY KEY)",
            "SELECT setval('shop.orders_id_seq', 500)");

    private static final TableBoundary TABLES = new TableBoundary(
            new TableIncludeList(List.of("shop\\.(orders|lines|plain|gone|margin|small|wide|unsubscribed|rolled)")),
            new TableMapping("${schema}.${table}"),
            new TableName("public", "pglane_progress"));

    /** Every change topic of the source, as a sink subscribed with topics.regex=src\..* consumes them. */
    private static final SequenceBoundary BOUNDARY =
            new SequenceBoundary(TABLES, TopicNames.perTable("src"), ConsumedTopics.matching("src\\..*"));

    private final AtomicInteger skipped = new AtomicInteger();

    /** A session as the sink opens it, with its pinned search path. */
    private static Connection session(String user) throws SQLException {
        DatabaseEndpoint admin = target.endpoint();
        Connection c = new DatabaseEndpoint(
                        admin.host(), admin.port(), admin.database(), user, null, admin.tls(), admin.connectTimeout())
                .connect("sequence-advance-test");
        c.setAutoCommit(false); // as an apply session runs
        return c;
    }

    private SequenceAdvance advance(Connection c, SequenceBoundary boundary, long margin) {
        return new SequenceAdvance(c, boundary, margin, skipped::incrementAndGet);
    }

    private static void readAndAdvance(SequenceAdvance advance, byte[] message, String position) {
        advance.read(message, position);
        advance.advance();
    }

    private static byte[] message(String entries) {
        return ("{\"sequences\": [" + entries + "]}").getBytes(StandardCharsets.UTF_8);
    }

    private static String entry(String table, String column, Object value) {
        return "{\"schema\": \"shop\", \"table\": \"" + table + "\", \"column\": \"" + column + "\", \"last_value\": "
                + value + "}";
    }

    private static long lastValue(String sequence) throws SQLException {
        return Long.parseLong(target.rows("SELECT last_value FROM " + sequence).get(0));
    }

    private static void assertWarned(LogCapture log, String text) {
        assertTrue(log.warnings().stream().anyMatch(w -> w.contains(text)), log.warnings()::toString);
    }

    @Test
    void sequencesMoveForwardOnlyAndWhatCannotBeSetIsWarnedOfWithoutFailingTheTransaction() throws SQLException {
        try (Connection c = session("postgres");
                LogCapture log = LogCapture.start()) {
            SequenceAdvance advance = advance(c, BOUNDARY, 0);
            readAndAdvance(
                    advance,
                    message(String.join(
                            ", ",
                            entry("orders", "id", 120),
                            entry("lines", "id", 42),
                            entry("plain", "id", 7),
                            entry("gone", "id", 9),
                            entry("hidden", "id", 1000))),
                    "shop.messages-0@5");
            assertEquals(500, lastValue("shop.orders_id_seq"), "never backward");
            assertEquals(42, lastValue("shop.lines_id_seq"));
            assertEquals(1, lastValue("shop.hidden_id_seq"), "outside the list");
            assertWarned(log, "shop.plain.id is skipped: the target has no such column, or it owns no sequence");
            assertWarned(log, "shop.gone.id is skipped");
            assertWarned(log, "source table shop.hidden is not in the sink's table.include.list");
            assertEquals(3, skipped.get(), "plain, gone and hidden");

            readAndAdvance(
                    advance,
                    message(entry("orders", "id", 900) + ", " + entry("lines", "id", 40)),
                    "shop.messages-0@6");
            assertEquals(900, lastValue("shop.orders_id_seq"));
            assertEquals(42, lastValue("shop.lines_id_seq"), "never backward");
            target.execute("INSERT INTO shop.orders (note) VALUES ('after')", "INSERT INTO shop.lines (n) VALUES (1)");
            assertEquals(List.of("901"), target.rows("SELECT id FROM shop.orders WHERE note = 'after'"));
            assertEquals(List.of("43"), target.rows("SELECT id FROM shop.lines"));
        }
    }

    @Test
    void theMarginComesOnTopOfTheSourcesValue() throws SQLException {
        target.execute("CREATE TABLE shop.margin (id serial PRIMARY KEY)");
        try (Connection c = session("postgres")) {
            readAndAdvance(advance(c, BOUNDARY, 1000), message(entry("margin", "id", 42)), "shop.messages-0@10");
        }
        assertEquals(1042, lastValue("shop.margin_id_seq"));
    }

    @Test
    void aMessageThatIsNotJsonIsWarnedOfAndSkipped() throws SQLException {
        try (Connection c = session("postgres");
                LogCapture log = LogCapture.start()) {
            readAndAdvance(advance(c, BOUNDARY, 0), "not json".getBytes(StandardCharsets.UTF_8), "shop.messages-0@9");
            assertWarned(log, "A sequence message at shop.messages-0@9 is not");
            assertEquals(1, skipped.get());
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
            readAndAdvance(advance(c, BOUNDARY, 0), message(entry("orders", "id", 5000)), "shop.messages-0@11");
            assertWarned(log, "shop.orders.id is skipped: the role lacks");
        }
        assertTrue(lastValue("shop.orders_id_seq") < 5000);
    }

    @Test
    void aValuePastTheSequencesMaximumIsClampedToIt() throws SQLException {
        try (Connection c = session("postgres");
                LogCapture log = LogCapture.start()) {
            readAndAdvance(
                    advance(c, BOUNDARY, 0),
                    message(entry("small", "id", 5_000_000_000L) + ", " + entry("wide", "id", 77)),
                    "shop.messages-0@12");
            assertWarned(log, "The sequence value 5000000000 of shop.small.id at shop.messages-0@12 is past its");
            assertEquals(1, skipped.get());
        }
        assertEquals(Integer.MAX_VALUE, lastValue("shop.small_id_seq"), "an int4 serial's maximum");
        assertEquals(77, lastValue("shop.wide_id_seq"), "the entry after it is applied too");
    }

    @Test
    void aValueThatOverflowsWithTheMarginOrIsNoBigintIsSkipped() throws SQLException {
        long before = lastValue("shop.wide_id_seq");
        try (Connection c = session("postgres");
                LogCapture log = LogCapture.start()) {
            SequenceAdvance advance = advance(c, BOUNDARY, 1000);
            readAndAdvance(
                    advance,
                    message(entry("wide", "id", Long.MAX_VALUE - 10) + ", " + entry("wide", "id", "1e30") + ", "
                            + entry("wide", "id", "\"9\"") + ", " + entry("wide", "id", "99999999999999999999")),
                    "shop.messages-0@13");
            assertWarned(log, "shop.wide.id at shop.messages-0@13 is skipped: it plus sequences.margin (1000) is past");
            assertWarned(log, "shop.wide.id at shop.messages-0@13 is skipped: it is not a bigint");
            assertEquals(4, skipped.get());
            c.createStatement().execute("SELECT 1"); // the session is still usable
        }
        assertEquals(before, lastValue("shop.wide_id_seq"));
    }

    @Test
    void aTableWhoseChangeTopicTheSinkDoesNotConsumeKeepsItsSequence() throws SQLException {
        SequenceBoundary listed = new SequenceBoundary(
                TABLES,
                TopicNames.perTable("src"),
                ConsumedTopics.listed(List.of("src.shop.orders", "src.messages", "src.transactions")));
        try (Connection c = session("postgres");
                LogCapture log = LogCapture.start()) {
            readAndAdvance(
                    advance(c, listed, 0),
                    message(entry("unsubscribed", "id", 4000) + ", " + entry("orders", "id", 4000)),
                    "shop.messages-0@14");
            assertWarned(log, "src.shop.unsubscribed, is not one this sink consumes");
            assertEquals(1, skipped.get());
        }
        assertEquals(1, lastValue("shop.unsubscribed_id_seq"));
        assertEquals(4000, lastValue("shop.orders_id_seq"));
    }

    @Test
    void aRolledBackTransactionMovesNoSequence() throws SQLException {
        SourceTransaction tx = new TestTransaction(90, Lsn.parse("0/9000"))
                .message("pglane.sequences.pub", message(entry("rolled", "id", 700)))
                .build();
        try (ApplySession session = ApplySessionTest.open(target, ConflictPolicy.ERROR, 100, false)) {
            target.execute(TableProgressLog.CREATE_TABLE);
            session.apply(tx, false);
            session.rollback(); // a deadlock victim, a retry
            assertEquals(1, lastValue("shop.rolled_id_seq"), "setval is not transactional: it waits for the commit");
            session.apply(tx, false);
            session.commit(tx);
        }
        assertEquals(700, lastValue("shop.rolled_id_seq"));
    }
}
