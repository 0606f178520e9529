package dev.pglane.sink.cleanup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.sink.PgSinkConfig;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.sink.progress.AppliedPosition;
import dev.pglane.sink.progress.OriginSessions;
import dev.pglane.sink.progress.ProgressLog;
import dev.pglane.sink.progress.ReplicationOrigins;
import dev.pglane.wire.Lsn;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Replication origins of sinks whose names share a prefix: sink {@code a} on server {@code x} and sink {@code a:x} on
 * server {@code s} (origins {@code pglane:a:x:<n>} and {@code pglane:a:x:s:<n>}) keep their own positions, and the
 * cleanup of one leaves the other's origins.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SinkCleanupTest {
    @RegisterExtension
    static final TargetServer target = new TargetServer();

    /** Commits one transaction at {@code lsn} through worker 0 of {@code log}, as an apply session does. */
    private static void commitAt(ProgressLog log, String lsn) throws SQLException {
        try (Connection worker = target.connect()) {
            log.setUpSession(worker, 0);
            worker.setAutoCommit(false);
            try (Statement st = worker.createStatement()) {
                st.execute("CREATE TABLE IF NOT EXISTS public.applied_rows (n int)");
                st.execute("INSERT INTO public.applied_rows VALUES (1)"); // a transaction with an xid commits
            }
            log.recordAndCommit(worker, new AppliedPosition(Lsn.parse(lsn), 1_700_000_000_000_000L, 7));
        }
    }

    private static PgSinkConfig config(String sinkName, String sourceServer) {
        return new PgSinkConfig(Map.of(
                "name",
                sinkName,
                DatabaseSettings.HOST,
                "127.0.0.1",
                DatabaseSettings.PORT,
                String.valueOf(target.endpoint().port()),
                DatabaseSettings.NAME,
                "postgres",
                DatabaseSettings.USER,
                "postgres",
                DatabaseSettings.SSLMODE,
                "disable",
                PgSinkConfig.SOURCE_TOPIC_PREFIX,
                sourceServer,
                PgSinkConfig.PROGRESS_STORE,
                "replication_origin"));
    }

    @Test
    void aSinkWhoseOriginsPrefixAnothersDoesNotTakeItsPosition() throws SQLException {
        ProgressLog longer = new ReplicationOrigins("p:x", "s", 1);
        ProgressLog shorter = new ReplicationOrigins("p", "x", 1);
        try (Connection control = target.connect()) {
            longer.prepare(control);
            commitAt(longer, "0/9000");
            shorter.prepare(control);
            assertEquals(
                    AppliedPosition.NONE, shorter.claim(control), "pglane:p:x:s:0 is no origin of sink p on server x");
            commitAt(shorter, "0/3000");
            assertEquals(Lsn.parse("0/3000"), shorter.claim(control).endLsn());
            assertEquals(Lsn.parse("0/9000"), longer.claim(control).endLsn());
        }
    }

    @Test
    void theCleanupOfOneSinkLeavesTheOriginsOfASinkWhoseNameItPrefixes() throws SQLException {
        ProgressLog longer = new ReplicationOrigins("a:x", "s", 2);
        ProgressLog shorter = new ReplicationOrigins("a", "x", 1);
        try (Connection control = target.connect()) {
            longer.prepare(control);
            shorter.prepare(control);
            commitAt(longer, "0/7000");
            ByteArrayOutputStream report = new ByteArrayOutputStream();
            boolean clean = new SinkCleanup(
                            config("a", "x"), "a", new PrintStream(report, true, StandardCharsets.UTF_8))
                    .clean();
            String said = report.toString(StandardCharsets.UTF_8);
            assertTrue(clean, said);
            assertTrue(said.contains("Dropped replication origin pglane:a:x:0"), said);
            assertEquals(List.of(), OriginSessions.originsOf(control, "a", "x"));
            assertEquals(List.of("pglane:a:x:s:0", "pglane:a:x:s:1"), OriginSessions.originsOf(control, "a:x", "s"));
            assertEquals(Lsn.parse("0/7000"), longer.claim(control).endLsn());
        }
    }
}
