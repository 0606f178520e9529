package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.local.kafka.CommittedTransaction;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A connector whose captured tables are idle must not pin WAL: while only a table outside its publication is
 * written, the slot's confirmed position still moves past those writes; with {@code heartbeat.action.query}, the
 * action's changes travel at every heartbeat while another database of the server is busy.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SourceIdleSlotIT {
    private static final Duration ADVANCE = Duration.ofSeconds(30);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.SourceServers#versions")
    @DisplayName("writes only to an uncaptured table: confirmed_flush_lsn advances past them, nothing is emitted")
    void idleSlotAdvances(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        SqlSession.execute(
                source,
                "CREATE TABLE captured (id integer PRIMARY KEY)",
                "CREATE TABLE uncaptured (id integer PRIMARY KEY, v text)");
        String name = "idle_pg" + version.major();
        Map<String, String> changes = Map.of("table.include.list", "public\\.captured", "status.interval.ms", "1000");
        try (SourceConnectorRun run = SourceConnectorRun.start(worker, source, name, changes);
                SqlSession session = SqlSession.open(source)) {
            Lsn before = confirmedFlush(source, run.slot());
            for (int i = 1; i <= 20; i++) {
                session.exec(
                        "INSERT INTO uncaptured SELECT g, repeat('w', 200) FROM generate_series(?, ?) g",
                        i * 1000,
                        i * 1000 + 999);
                session.commit();
            }
            Lsn written = Lsn.parse((String) session.queryValue("SELECT pg_current_wal_lsn()::text"));
            session.commit();

            Waits.until(
                    "confirmed_flush_lsn of " + run.slot() + " (was " + before + ") passes " + written,
                    ADVANCE,
                    () -> confirmedFlush(source, run.slot()).compareTo(written) >= 0);

            run.reader().readQuietFor(run.rebuilder()::accept, Duration.ofSeconds(1));
            assertEquals(List.of(), run.withChanges(), "nothing of the uncaptured table is emitted");
        }
    }

    @Test
    @DisplayName("heartbeat.action.query while another database is busy: each run is a change that reaches the topics,"
            + " and the slot moves past the other database's WAL")
    void theHeartbeatActionRunsAtEveryHeartbeat() throws Exception {
        PostgresNode source = servers.of(SourceServers.defaultVersion().get(0));
        SqlSession.execute(
                source,
                "CREATE DATABASE busy_other",
                "CREATE TABLE heartbeat (id integer PRIMARY KEY, beats bigint NOT NULL)");
        String name = "heartbeat_action";
        Map<String, String> changes = Map.of(
                "table.include.list",
                "public\\.heartbeat",
                "heartbeat.interval.ms",
                "300",
                "heartbeat.action.query",
                "INSERT INTO public.heartbeat VALUES (1, 1) ON CONFLICT (id) DO UPDATE"
                        + " SET beats = public.heartbeat.beats + 1");
        try (SourceConnectorRun run = SourceConnectorRun.start(worker, source, name, changes);
                Connection other = DriverManager.getConnection(source.jdbcUrlOf("busy_other"));
                Statement busy = other.createStatement()) {
            busy.execute("CREATE TABLE writes (id integer, v text)");
            for (int i = 1; i <= 10; i++) {
                busy.execute("INSERT INTO writes SELECT g, repeat('w', 200) FROM generate_series(1, 2000) g");
            }
            Lsn written;
            try (ResultSet rs = busy.executeQuery("SELECT pg_current_wal_insert_lsn()::text")) {
                rs.next();
                written = Lsn.parse(rs.getString(1));
            }
            List<CommittedTransaction> beats = run.awaitCommitted(3, ADVANCE);
            for (CommittedTransaction beat : beats) {
                assertEquals("heartbeat", beat.changes().get(0).source().table(), beat.toString());
            }
            Waits.until(
                    "confirmed_flush_lsn of " + run.slot() + " passes " + written + ", the other database's writes",
                    ADVANCE,
                    () -> confirmedFlush(source, run.slot()).compareTo(written) >= 0);
        }
    }

    static Lsn confirmedFlush(PostgresNode source, String slot) throws SQLException {
        try (Connection connection = source.open();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = ?")) {
            query.setString(1, slot);
            try (ResultSet rs = query.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no slot " + slot);
                }
                return Lsn.parse(rs.getString(1));
            }
        }
    }
}
