package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.CommittedTransactions;
import dev.pglane.local.pipeline.Progress;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.stack.TaskMetrics;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.workload.ChangeWorkload;
import dev.pglane.local.workload.Pgbench;
import dev.pglane.local.workload.WorkloadSchema;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An application writes to the source while a pglane source and sink keep the target up to date; once the sink has
 * caught up, the target holds exactly the source's rows, and its progress row names the last source transaction.
 * Each story runs on every major of the matrix, its tables in a schema of its own on servers and a worker the
 * stories share.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SinkReplicationIT {
    private static final Duration CATCH_UP = Duration.ofSeconds(180);
    private static final long LARGE_TRANSACTION_BYTES = 20L << 20;
    private static final String MIN_BUFFER_BYTES = Long.toString(1L << 20);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    static Stream<Arguments> versionsAndWorkers() {
        return SourceServers.versions().stream()
                .flatMap(version -> Stream.of(Arguments.of(version, 4), Arguments.of(version, 1)));
    }

    @ParameterizedTest(name = "{0}, apply.workers {1}")
    @MethodSource("versionsAndWorkers")
    @DisplayName("pgbench, concurrent sessions over every kind of table and change, and a transaction twenty times"
            + " the sink's buffer: the target ends equal to the source")
    void concurrentWorkload(PostgresVersion version, int workers) throws Exception {
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "mixed_w" + workers + "_pg" + version.major();
        ChangeWorkload workload = new ChangeWorkload(source.jdbcUrl(), new WorkloadSchema(name));
        List<TypeCase> cases = TypeCases.all();
        createTypes(source);
        createTypes(target);
        workload.createTables();
        SqlSession.execute(source, TypeCases.createTable(name + ".every_type", cases));
        SqlSession.execute(target, "CREATE SCHEMA " + name); // for pgbench's tables; the sink creates the others
        Pgbench pgbench = initPgbench(name, source, target);

        try (SinkConnectorRun run = SinkConnectorRun.start(
                worker,
                source,
                target,
                name,
                Map.of("apply.workers", Integer.toString(workers), "buffer.max.bytes", MIN_BUFFER_BYTES))) {
            CompletableFuture<Long> pgbenchRun = pgbench == null
                    ? CompletableFuture.completedFuture(0L)
                    : CompletableFuture.supplyAsync(() -> pgbenchTransactions(pgbench));
            ChangeWorkload.Result mixed = workload.runTransactions(3, 60);
            writeTypeRows(source, name, cases);
            workload.largeTransaction(LARGE_TRANSACTION_BYTES);
            long pgbenchCommitted = join(pgbenchRun);

            CatchUp.Result caughtUp = run.awaitCatchUp(CATCH_UP);
            // each pgbench transaction changes rows, and so do the type rows' and the large one
            assertTrue(
                    caughtUp.committed().transactions() >= pgbenchCommitted + 2,
                    "pgbench committed " + pgbenchCommitted + " transactions (the mixed workload " + mixed
                            + "), but the markers tell " + caughtUp.committed());
            assertEqual(run.compare());
            assertProgressAtLastTransaction(run, caughtUp);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.SourceServers#versions")
    @DisplayName("triggers on the target make a later transaction hold a lock the earlier one needs: the sink"
            + " resolves the commit-order deadlock and commits both, in source order")
    void commitOrderDeadlock(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "deadlock_pg" + version.major();
        String tables = "CREATE TABLE " + name + ".a (id integer PRIMARY KEY, v text); CREATE TABLE " + name
                + ".b (id integer PRIMARY KEY, v text)";
        SqlSession.execute(source, "CREATE SCHEMA " + name, tables);
        SqlSession.execute(target, "CREATE SCHEMA " + name, tables);
        SqlSession.execute(target, TargetTriggers.countingTriggers(name).toArray(String[]::new));

        // each source transaction its own target transaction: grouped, the two would never run at once
        Map<String, String> sink = Map.of("apply.workers", "4", "apply.group.max.transactions", "1");
        try (SinkConnectorRun run = SinkConnectorRun.start(worker, source, target, name, sink);
                SqlSession session = SqlSession.open(source)) {
            int rounds = 3;
            for (int round = 1; round <= rounds; round++) {
                // tx1 into a, then tx2 into b: no common row, so the sink applies them at once
                session.exec("INSERT INTO " + name + ".a VALUES (?, 'first')", round);
                session.commit();
                session.exec("INSERT INTO " + name + ".b VALUES (?, 'second')", round);
                session.commit();
            }

            CatchUp.Result caughtUp = run.awaitCatchUp(Duration.ofSeconds(60));
            assertEqual(run.compare());
            assertEquals(
                    List.of(2L * rounds, "ab".repeat(rounds)),
                    TargetTriggers.counter(target, name),
                    "the triggers' counter: both transactions of each round applied once, a's before b's");
            assertTrue(
                    TaskMetrics.value(run.sinkName(), "deadlocks-resolved-total") >= 1,
                    "the sink's metrics count the commit-order deadlocks it resolved");
            assertProgressAtLastTransaction(run, caughtUp);
        }
    }

    /** What goes wrong while the sink applies a backlog. */
    enum Fault {
        /** The task is restarted over REST: stopped, then started again from the committed offsets. */
        TASK_RESTART,
        /** Every session of the sink on the target is terminated: to the sink, connections lost mid-apply. */
        SESSIONS_KILLED
    }

    static Stream<Arguments> versionsAndFaults() {
        return SourceServers.versions().stream()
                .flatMap(version -> Stream.of(Fault.values()).map(fault -> Arguments.of(version, fault)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("versionsAndFaults")
    @DisplayName("a fault while the sink applies a backlog: nothing is lost and nothing applied twice")
    void faultWhileApplying(PostgresVersion version, Fault fault) throws Exception {
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "fault_" + fault.name().toLowerCase() + "_pg" + version.major();
        ChangeWorkload workload = new ChangeWorkload(source.jdbcUrl(), new WorkloadSchema(name));
        workload.createTables(); // on the source only: the sink creates the schema and its tables

        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, target, name, Map.of("apply.workers", "4"))) {
            run.pauseSink();
            workload.runTransactions(3, 300);
            run.resumeSink();

            Progress beforeFault = awaitProgressBeyond(run, Progress.NONE);
            if (fault == Fault.TASK_RESTART) {
                run.restartSinkTask();
            } else {
                killSinkSessions(target);
            }

            CatchUp.Result caughtUp = run.awaitCatchUp(CATCH_UP);
            assertTrue(
                    caughtUp.committed().lastChangeEnd().compareTo(beforeFault.endLsn()) > 0,
                    "the fault came before the sink had caught up: at " + beforeFault + ", the backlog ends at "
                            + caughtUp.committed().lastChangeEnd());
            assertEqual(run.compare());
            assertEquals(ledger(source, name), ledger(target, name), "ledger rows and distinct ids, source and target");
            assertProgressAtLastTransaction(run, caughtUp);
        }
    }

    private static Progress awaitProgressBeyond(SinkConnectorRun run, Progress earlier) {
        Progress[] seen = {earlier};
        Waits.until("the sink applies beyond " + earlier, Duration.ofSeconds(60), () -> {
            seen[0] = run.progress();
            return seen[0].endLsn().compareTo(earlier.endLsn()) > 0;
        });
        return seen[0];
    }

    /** Ends every other session on the target, the sink's among them: to the sink, connections lost mid-apply. */
    private static void killSinkSessions(PostgresNode target) throws SQLException {
        SqlSession.execute(
                target,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                        + " AND backend_type = 'client backend' AND pid <> pg_backend_pid()");
    }

    /** The ledger's rows and distinct ids: a transaction applied twice adds rows, not ids. */
    private static List<Long> ledger(PostgresNode server, String schema) throws SQLException {
        try (SqlSession session = SqlSession.open(server)) {
            String table = schema + ".ledger";
            return List.of(
                    ((Number) session.queryValue("SELECT count(*) FROM " + table)).longValue(),
                    ((Number) session.queryValue("SELECT count(DISTINCT id) FROM " + table)).longValue());
        }
    }

    /** Types the every-type table needs, on either server; created once per server, whichever story comes first. */
    static void createTypes(PostgresNode server) throws SQLException {
        for (String statement : TypeCases.prerequisites()) {
            try {
                SqlSession.execute(server, statement);
            } catch (SQLException e) {
                if (!"42710".equals(e.getSQLState())) { // duplicate_object: an earlier story made it
                    throw e;
                }
            }
        }
    }

    /**
     * pgbench's tables in the run's schema, with the same rows on both servers (pgbench generates them from the
     * scale alone), as an initial copy would leave them; null when pgbench is not installed.
     */
    private static Pgbench initPgbench(String schema, PostgresNode source, PostgresNode target) throws Exception {
        if (!Pgbench.isInstalled(Pgbench.DEFAULT_EXECUTABLE)) {
            return null;
        }
        Pgbench.of(Pgbench.DEFAULT_EXECUTABLE, target).inSchema(schema).init(1);
        Pgbench onSource = Pgbench.of(Pgbench.DEFAULT_EXECUTABLE, source).inSchema(schema);
        onSource.init(1);
        return onSource;
    }

    private static long pgbenchTransactions(Pgbench pgbench) {
        try {
            return pgbench.runTransactions(2, 2, 150);
        } catch (Exception e) {
            throw new CompletionException(e);
        }
    }

    /** Every type family's rows of {@link TypeCases}, the NULL row, then an update and a delete. */
    static void writeTypeRows(PostgresNode source, String schema, List<TypeCase> cases) throws SQLException {
        String table = schema + ".every_type";
        List<String> statements = new ArrayList<>();
        for (int row = 0; row <= 3; row++) {
            statements.add(TypeCases.insert(table, cases, row));
        }
        statements.add("UPDATE " + table + " SET c_text = 'changed', c_int4 = 42 WHERE id = 1");
        statements.add("DELETE FROM " + table + " WHERE id = 2");
        SqlSession.execute(source, statements.toArray(String[]::new));
    }

    static void assertEqual(ComparisonReport report) {
        assertTrue(report.isEqual(), () -> "the target differs from the source:\n" + report.summary());
    }

    /**
     * The sink's progress is exactly an END position, and no transaction with changes ends between the last one
     * the catch-up waited for and it: only transactions without changes (PostgreSQL 14 sends those of other
     * sessions' catalog work) may follow.
     */
    static void assertProgressAtLastTransaction(SinkConnectorRun run, CatchUp.Result caughtUp) throws SQLException {
        Progress progress = run.progress();
        CommittedTransactions upToProgress = run.committedUpTo(progress.endLsn());
        assertEquals(upToProgress.lastEnd(), progress.endLsn(), "the progress is the END of a source transaction");
        assertEquals(
                caughtUp.committed().lastChangeEnd(),
                upToProgress.lastChangeEnd(),
                "the progress names the last source transaction with changes (or an empty one after it)");
    }

    private static <T> T join(CompletableFuture<T> future) throws Exception {
        try {
            return future.join();
        } catch (CompletionException e) {
            throw (Exception) e.getCause();
        }
    }
}
