package dev.pglane.it;

import static dev.pglane.it.SinkReplicationIT.assertEqual;
import static dev.pglane.it.SinkReplicationIT.assertProgressAtLastTransaction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.stack.ConnectorStatus;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.workload.ChangeWorkload;
import dev.pglane.local.workload.WorkloadSchema;
import dev.pglane.wire.Lsn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The pipeline as a deployment runs it, where the defaults used to be unsafe: a sink role with no more than the
 * README grants, a source server swapped under the topic prefix, and a row Kafka refuses. On the default major
 * only: the server version changes none of it (PostgreSQL 14 has no grantable session_replication_role at all).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TrustBoundaryIT {
    private static final Duration CATCH_UP = Duration.ofSeconds(120);
    private static final Duration FAILURE = Duration.ofSeconds(60);
    private static final PostgresVersion VERSION = PostgresVersion.fromProperty();

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @Test
    @DisplayName("a sink role granted exactly what docs/security.md lists applies everything, as no superuser")
    void theReadmesLeastPrivilegeRoleRunsTheWholePipeline() throws Exception {
        assumeTrue(
                VERSION.major() >= 15,
                "before PostgreSQL 15 only a superuser may set session_replication_role, as the README says");
        String name = "least_privilege";
        PostgresNode source = servers.of(VERSION);
        PostgresNode target = servers.targetOf(VERSION);
        WorkloadSchema schema = new WorkloadSchema(name);
        ChangeWorkload workload = new ChangeWorkload(source.jdbcUrl(), schema);
        workload.createTables();
        SqlSession.execute(target, schema.ddl().toArray(String[]::new));
        SqlSession.execute(target, securityGuideRoleStatements(name).toArray(String[]::new));
        assertEquals(
                List.of("f|f"),
                rows(
                        target,
                        "SELECT rolsuper, pg_catalog.has_schema_privilege("
                                + "'pglane_sink', 'public', 'CREATE') FROM pg_roles WHERE rolname = 'pglane_sink'"));

        Map<String, String> asTheRole = Map.of("database.user", "pglane_sink", "auto.create", "false");
        try (SinkConnectorRun run = SinkConnectorRun.start(worker, source, target, name, asTheRole)) {
            workload.runTransactions(2, 60);
            CatchUp.Result caughtUp = run.awaitCatchUp(CATCH_UP);
            assertEqual(run.compare());
            assertProgressAtLastTransaction(run, caughtUp);
            assertEquals(
                    List.of("pglane_sink"),
                    rows(
                            target,
                            "SELECT DISTINCT usename FROM pg_stat_activity WHERE application_name LIKE 'pglane-"
                                    + run.sinkName() + "-worker-%'"));
        }
    }

    @Test
    @DisplayName("a source connector on another server under the same prefix stops the sink, naming both servers")
    void aSourceSwappedUnderThePrefixStopsTheSink() throws Exception {
        String name = "swapped";
        PostgresNode source = servers.of(VERSION);
        PostgresNode fresh = servers.another(VERSION);
        String table = "CREATE TABLE " + name + ".notes (id int PRIMARY KEY, note text)";
        SqlSession.execute(source, "CREATE SCHEMA " + name, table);
        SqlSession.execute(fresh, "CREATE SCHEMA " + name, table);

        try (SinkConnectorRun run = SinkConnectorRun.start(worker, source, servers.targetOf(VERSION), name, Map.of())) {
            SqlSession.execute(
                    source, "INSERT INTO " + name + ".notes SELECT g, 'first' FROM generate_series(1, 20) g");
            run.awaitCatchUp(CATCH_UP);
            Lsn applied = run.progress().endLsn();
            run.source().close();

            Map<String, String> samePrefix = Map.of("topic.prefix", name, "table.include.list", name + "\\..*");
            try (SourceConnectorRun swapped = SourceConnectorRun.start(worker, fresh, name + "_fresh", samePrefix)) {
                SqlSession.execute(fresh, "INSERT INTO " + name + ".notes VALUES (1, 'from the fresh server')");
                String trace = awaitTaskFailure(run.sinkName());
                assertTrue(
                        trace.contains("The source under topic prefix " + name + " now reads PostgreSQL system "
                                + systemId(fresh)),
                        trace);
                assertTrue(trace.contains("was applied from system " + systemId(source)), trace);
                assertTrue(trace.contains("(end LSN " + applied + ")"), trace);
            }
            assertEquals(
                    List.of("1|first"),
                    rows(servers.targetOf(VERSION), "SELECT id, note FROM " + name + ".notes WHERE id = 1"));
        }
    }

    @Test
    @DisplayName("a row Kafka refuses fails the source task naming it, the slot stays before it, nothing is lost")
    void aRowKafkaRefusesFailsTheSourceAndIsSentOnceAllowed() throws Exception {
        String name = "oversized";
        PostgresNode source = servers.of(VERSION);
        SqlSession.execute(
                source, "CREATE SCHEMA " + name, "CREATE TABLE " + name + ".docs (id int PRIMARY KEY, body text)");
        Map<String, String> small =
                Map.of("producer.override.max.request.size", "100000", "table.include.list", name + "\\..*");
        try (LogCapture log = LogCapture.start();
                SourceConnectorRun run = SourceConnectorRun.start(worker, source, name, small)) {
            SqlSession.execute(source, "INSERT INTO " + name + ".docs VALUES (1, 'small')");
            run.awaitCommitted(1, CATCH_UP);
            SqlSession.execute(source, "INSERT INTO " + name + ".docs VALUES (2, repeat('x', 300000))");
            Lsn written = currentLsn(source);

            String trace = awaitTaskFailure(name);
            assertTrue(trace.contains("RecordTooLargeException"), trace);
            Lsn confirmed = confirmedFlush(source, name);
            assertTrue(
                    confirmed.compareTo(written) < 0,
                    "the slot stays before the refused row: confirmed " + confirmed + ", row written by " + written);
            Waits.until(
                    "the task names the row Kafka did not take",
                    FAILURE,
                    () -> log.warnings().stream()
                            .anyMatch(l -> l.contains("pglane source " + name + " stops with records Kafka has not"
                                    + " acknowledged, the first a change of " + name + ".docs at LSN")));

            Map<String, String> config = new HashMap<>(worker.rest().connectorConfig(name));
            config.put("producer.override.max.request.size", "4194304");
            worker.rest().putConnectorConfig(name, config);
            Waits.until("the task runs again", FAILURE, () -> {
                ConnectorStatus status = worker.rest().status(name);
                if (status.tasks().stream().anyMatch(task -> ConnectorStatus.FAILED.equals(task.state()))) {
                    worker.rest().restartTask(name, 0);
                }
                return status.isRunning();
            });
            List<Object> ids = new ArrayList<>();
            run.awaitCommitted(2, CATCH_UP)
                    .forEach(tx -> tx.changes()
                            .forEach(change -> ids.add(change.after().get("id"))));
            assertTrue(ids.contains(2), "the refused row arrived once it fitted: " + ids);
        }
    }

    /** The least-privilege statements of docs/security.md, for the tables of {@code schema} instead of {@code app}. */
    private static List<String> securityGuideRoleStatements(String schema) throws IOException {
        String readme = Files.readString(Path.of("..", "docs", "security.md"));
        int start = readme.indexOf("<!-- least-privilege-role");
        int open = readme.indexOf("```sql", start) + "```sql".length();
        String block = readme.substring(open, readme.indexOf("```", open));
        List<String> statements = new ArrayList<>();
        for (String statement : block.split(";")) {
            if (!statement.isBlank()) {
                statements.add(statement.strip().replace(" SCHEMA app ", " SCHEMA " + schema + " "));
            }
        }
        return statements;
    }

    private static String awaitTaskFailure(String connector) {
        ConnectorStatus[] seen = new ConnectorStatus[1];
        Waits.until("the task of " + connector + " fails", FAILURE, () -> {
            seen[0] = worker.rest().status(connector);
            return seen[0].tasks().stream().anyMatch(task -> ConnectorStatus.FAILED.equals(task.state()));
        });
        return seen[0].tasks().stream()
                .filter(task -> ConnectorStatus.FAILED.equals(task.state()))
                .findFirst()
                .orElseThrow()
                .trace();
    }

    private static String systemId(PostgresNode server) throws SQLException {
        return rows(server, "SELECT system_identifier::text FROM pg_control_system()")
                .get(0);
    }

    private static Lsn currentLsn(PostgresNode server) throws SQLException {
        return Lsn.parse(
                rows(server, "SELECT pg_current_wal_insert_lsn()::text").get(0));
    }

    private static Lsn confirmedFlush(PostgresNode server, String slot) throws SQLException {
        return Lsn.parse(rows(
                        server,
                        "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '" + slot + "'")
                .get(0));
    }

    private static List<String> rows(PostgresNode server, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = server.open();
                Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }
}
