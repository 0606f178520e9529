package dev.pglane.sink.apply;

import static dev.pglane.sink.apply.SourceTable.column;
import static dev.pglane.sink.apply.SourceTable.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.sink.admit.ConsumedTopics;
import dev.pglane.sink.admit.SequenceBoundary;
import dev.pglane.sink.admit.TableBoundary;
import dev.pglane.sink.admit.TableIncludeList;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.target.TableEvolution;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TargetCatalog;
import dev.pglane.sink.target.TargetTypes;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An apply session against a real PostgreSQL: each kind of change, batching, DDL and the progress row. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ApplySessionTest {
    private static final int NUMERIC_10_2 = (10 << 16 | 2) + 4;

    @RegisterExtension
    static final TargetServer server = new TargetServer(TableProgressLog.CREATE_TABLE);

    static ApplySession open(TargetServer target, ConflictPolicy policy, int batchMaxRows, boolean autoCreate)
            throws SQLException {
        return open(target, policy, batchMaxRows, autoCreate, ConflictListener.NONE, true);
    }

    static ApplySession open(
            TargetServer target,
            ConflictPolicy policy,
            int batchMaxRows,
            boolean autoCreate,
            ConflictListener listener,
            boolean pipeline)
            throws SQLException {
        return open(target, policy, batchMaxRows, autoCreate, listener, pipeline, false);
    }

    static ApplySession open(
            TargetServer target,
            ConflictPolicy policy,
            int batchMaxRows,
            boolean autoCreate,
            ConflictListener listener,
            boolean pipeline,
            boolean truncateCascade)
            throws SQLException {
        return open(target, policy, batchMaxRows, autoCreate, listener, pipeline, truncateCascade, false);
    }

    static ApplySession open(
            TargetServer target,
            ConflictPolicy policy,
            int batchMaxRows,
            boolean autoCreate,
            ConflictListener listener,
            boolean pipeline,
            boolean truncateCascade,
            boolean snapshotTruncate)
            throws SQLException {
        return open(
                target, policy, batchMaxRows, autoCreate, false, listener, pipeline, truncateCascade, snapshotTruncate);
    }

    static ApplySession open(
            TargetServer target,
            ConflictPolicy policy,
            int batchMaxRows,
            boolean autoCreate,
            boolean autoEvolve,
            ConflictListener listener,
            boolean pipeline,
            boolean truncateCascade,
            boolean snapshotTruncate)
            throws SQLException {
        return ApplySession.open(
                target.endpoint(),
                3,
                new ApplySettings(
                        policy,
                        SynchronousCommit.OFF,
                        batchMaxRows,
                        "apply-test",
                        pipeline,
                        truncateCascade,
                        Duration.ofSeconds(30),
                        Duration.ofMinutes(5),
                        snapshotTruncate,
                        0),
                new TableMapping("${schema}.${table}"),
                new TargetCatalog(target.endpoint(), "apply-test-catalog"),
                new TableEvolution(autoCreate, autoEvolve, new TargetTypes(target.endpoint(), "apply-session-test")),
                new TableProgressLog(),
                listener,
                new SequenceBoundary(
                        new TableBoundary(
                                new TableIncludeList(List.of()), new TableMapping("${schema}.${table}"), null),
                        TopicNames.perTable("src"),
                        ConsumedTopics.matching("src\\..*")),
                SequenceListener.NONE);
    }

    static void applyAndCommit(ApplySession session, SourceTransaction tx) throws SQLException {
        session.apply(tx, false);
        session.commit(tx);
    }

    private static SourceTable orders(String table) {
        return SourceTable.of(
                "public",
                table,
                key("id", PgType.INT4),
                column("amount", PgType.NUMERIC, NUMERIC_10_2),
                new Column("tags", PgColumnType.of(PgType.INT4.arrayOid(), -1), false),
                column("placed_at", PgType.TIMESTAMPTZ),
                column("note", PgType.TEXT));
    }

    private static Object[] order(int id, String amount, List<Integer> tags, String placedAt, String note) {
        return new Object[] {id, amount == null ? null : new BigDecimal(amount), tags, placedAt, note};
    }

    /**
     * The session has read the table before a column was dropped from it by hand; a record then needs a column
     * added: after that DDL the table is read again, lacks the dropped column the record still carries, and a second
     * look adds it too, instead of failing on a column the update's plan cannot find.
     */
    @Test
    void aTableChangedByHandSinceTheSessionReadItGetsAllTheDdlItNeeds() throws SQLException {
        server.execute("CREATE TABLE public.evolving (id int PRIMARY KEY, a text)");
        SourceTable before = SourceTable.of("public", "evolving", key("id", PgType.INT4), column("a", PgType.TEXT));
        SourceTable after = SourceTable.of(
                "public", "evolving", key("id", PgType.INT4), column("a", PgType.TEXT), column("b", PgType.TEXT));
        try (ApplySession session =
                open(server, ConflictPolicy.ERROR, 100, false, true, ConflictListener.NONE, true, false, false)) {
            applyAndCommit(
                    session,
                    new TestTransaction(20, Lsn.parse("0/B000"))
                            .insert(before, before.row(1, "x"))
                            .build());
            server.execute("ALTER TABLE public.evolving DROP COLUMN a");
            applyAndCommit(
                    session,
                    new TestTransaction(21, Lsn.parse("0/B100"))
                            .update(after, after.row(1, "x", null), after.row(1, "y", "z"))
                            .build());
        }
        assertEquals(List.of("1|y|z"), server.rows("SELECT id, a, b FROM public.evolving ORDER BY id"));
    }

    @Test
    void setsTheSessionUpLikePostgresqlsSubscriber() throws SQLException {
        server.execute(
                "CREATE TABLE public.triggered (id int PRIMARY KEY)",
                "CREATE FUNCTION public.refuse() RETURNS trigger LANGUAGE plpgsql AS"
                        + " $$BEGIN RAISE EXCEPTION 'ordinary triggers must not fire'; END$$",
                "CREATE TRIGGER refuse BEFORE INSERT ON public.triggered FOR EACH ROW EXECUTE FUNCTION public.refuse()");
        SourceTable triggered = SourceTable.of("public", "triggered", key("id", PgType.INT4));
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, false)) {
            assertEquals(
                    List.of("apply-test-worker-3"),
                    server.rows("SELECT application_name FROM pg_stat_activity WHERE pid = " + session.backendPid()));
            applyAndCommit(
                    session,
                    new TestTransaction(10, Lsn.parse("0/A000"))
                            .insert(triggered, triggered.row(1))
                            .build());
        }
        assertEquals(List.of("1"), server.rows("SELECT id FROM public.triggered"));
    }

    /**
     * Whoever may create objects in a schema of the default search path must not be able to shadow what the
     * sink's statements call: its sessions search pg_catalog only (and their own temporary schema, last).
     */
    @Test
    void appliesUnderThePinnedSearchPath() throws SQLException {
        server.execute(
                "CREATE TABLE public.path_probe (id int PRIMARY KEY)",
                "CREATE TABLE public.seen_paths (path text)",
                "CREATE FUNCTION public.record_path() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN"
                        + " INSERT INTO public.seen_paths VALUES (current_setting('search_path')); RETURN NEW; END$$",
                "CREATE TRIGGER record_path BEFORE INSERT ON public.path_probe FOR EACH ROW"
                        + " EXECUTE FUNCTION public.record_path()",
                "ALTER TABLE public.path_probe ENABLE ALWAYS TRIGGER record_path");
        SourceTable probe = SourceTable.of("public", "path_probe", key("id", PgType.INT4));
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, false)) {
            applyAndCommit(
                    session,
                    new TestTransaction(13, Lsn.parse("0/B200"))
                            .insert(probe, probe.row(1))
                            .build());
        }
        assertEquals(List.of(DatabaseEndpoint.PINNED_SEARCH_PATH), server.rows("SELECT path FROM public.seen_paths"));
    }

    /**
     * Sessions see only pg_catalog: a key of an extension type must be compared with its own index's operator,
     * which lives in the extension's schema (ltree's {@code =} is not in pg_catalog, and no cast leads there).
     */
    @ParameterizedTest(name = "pipeline {0}")
    @ValueSource(booleans = {true, false})
    void keysOfExtensionTypesCompareWithTheirIndexOperator(boolean pipeline) throws SQLException {
        String table = "paths_" + pipeline;
        server.execute(
                "CREATE EXTENSION IF NOT EXISTS ltree SCHEMA public",
                "CREATE TABLE public." + table + " (path public.ltree PRIMARY KEY, n int)",
                "INSERT INTO public." + table + " VALUES ('top.a', 1), ('top.b', 2)");
        int ltree = Integer.parseInt(
                server.rows("SELECT 'public.ltree'::regtype::oid").get(0));
        SourceTable paths = SourceTable.of(
                "public",
                table,
                new Column("path", PgColumnType.named(ltree, "ltree", -1, "public.ltree"), true),
                column("n", PgType.INT4));
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, false, ConflictListener.NONE, pipeline)) {
            applyAndCommit(
                    session,
                    new TestTransaction(12, Lsn.parse("0/B100"))
                            .update(paths, paths.row("top.a", 1), paths.row("top.a", 10))
                            .delete(paths, paths.row("top.b", 2))
                            .build());
        }
        assertEquals(List.of("top.a|10"), server.rows("SELECT path, n FROM public." + table));
    }

    @Test
    void insertsRowsOfSeveralTypesInMultiRowStatementsAndRecordsProgress() throws SQLException {
        server.execute("CREATE TABLE public.orders (id int PRIMARY KEY, amount numeric(10,2), tags int[],"
                + " placed_at timestamptz, note text)");
        SourceTable orders = orders("orders");
        TestTransaction tx = new TestTransaction(11, Lsn.parse("0/B000"));
        for (int id = 1; id <= 5; id++) {
            tx.insert(
                    orders, orders.row(order(id, id + ".50", List.of(id, 7), "2024-03-01T12:30:00.250000Z", "n" + id)));
        }
        tx.change(
                orders,
                Op.CREATE,
                b -> b.after(orders.row(order(6, null, List.of(), null, null)))
                        .textValue(RowImage.AFTER, "amount", "NaN"));
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 2, false)) {
            applyAndCommit(session, tx.build());
        }
        assertEquals(
                List.of(
                        "1|1.50|{1,7}|1709296200.250000|n1",
                        "2|2.50|{2,7}|1709296200.250000|n2",
                        "3|3.50|{3,7}|1709296200.250000|n3",
                        "4|4.50|{4,7}|1709296200.250000|n4",
                        "5|5.50|{5,7}|1709296200.250000|n5",
                        "6|NaN|{}|null|null"),
                server.rows(
                        "SELECT id, amount, tags, extract(epoch FROM placed_at), note FROM public.orders ORDER BY id"));
        assertEquals(
                List.of("0/B000|" + TestTransaction.COMMIT_TS_US),
                server.rows("SELECT end_lsn, commit_ts_us FROM public.applied WHERE xid = 11"));
    }

    @Test
    void updatesByOldKeyKeepsUnchangedToastDeletesAndSkipsMessages() throws SQLException {
        server.execute(
                "CREATE TABLE public.changed (id int PRIMARY KEY, amount numeric(10,2), tags int[],"
                        + " placed_at timestamptz, note text)",
                "INSERT INTO public.changed VALUES (1, 1, '{1}', now(), 'one'), (2, 2, '{2}', now(), 'kept toast'),"
                        + " (3, 3, '{3}', now(), 'three')");
        SourceTable changed = orders("changed");
        SourceTransaction tx = new TestTransaction(12, Lsn.parse("0/C000"))
                .update(
                        changed,
                        changed.row(order(1, null, null, null, null)),
                        changed.row(order(10, "10.00", List.of(10), "2024-01-01T00:00:00.000000Z", "ten")))
                .update(
                        changed,
                        null,
                        changed.row(order(2, "20.00", List.of(20), "2024-01-01T00:00:00.000000Z", null)),
                        "note")
                .change(changed, Op.MESSAGE, b -> b.message(new LogicalMessage("p", new byte[] {1}, true)))
                .delete(changed, changed.row(order(3, null, null, null, null)))
                .build();
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, false)) {
            applyAndCommit(session, tx);
        }
        assertEquals(
                List.of("2|20.00|{20}|kept toast", "10|10.00|{10}|ten"),
                server.rows("SELECT id, amount, tags, note FROM public.changed ORDER BY id"));
    }

    /** Parent and other as the source has them, and a child table that references parent. */
    private static void truncationTables(String suffix) throws SQLException {
        server.execute(
                "CREATE TABLE public.parent_" + suffix + " (id int GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY)",
                "CREATE TABLE public.child_" + suffix + " (id int PRIMARY KEY, parent_id int REFERENCES public.parent_"
                        + suffix + ")",
                "CREATE TABLE public.other_" + suffix + " (id serial PRIMARY KEY)",
                "INSERT INTO public.parent_" + suffix + " DEFAULT VALUES",
                "INSERT INTO public.parent_" + suffix + " DEFAULT VALUES",
                "INSERT INTO public.child_" + suffix + " VALUES (1, 2)",
                "INSERT INTO public.other_" + suffix + " DEFAULT VALUES");
    }

    /** The source ran TRUNCATE parent, other RESTART IDENTITY CASCADE; child is not published. */
    private static SourceTransaction truncation(String suffix, long xid) {
        SourceTable parent = SourceTable.of("public", "parent_" + suffix, key("id", PgType.INT4));
        SourceTable other = SourceTable.of("public", "other_" + suffix, key("id", PgType.INT4));
        return new TestTransaction(xid, Lsn.parse("0/D000"))
                .truncate(parent, true, true)
                .truncate(other, true, true)
                .build();
    }

    @Test
    void truncatesWithCascadeAndRestartIdentityInOneStatementWhenAsked() throws SQLException {
        truncationTables("cascaded");
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, false, ConflictListener.NONE, true, true)) {
            applyAndCommit(session, truncation("cascaded", 13));
        }
        server.execute(
                "INSERT INTO public.parent_cascaded DEFAULT VALUES",
                "INSERT INTO public.other_cascaded DEFAULT VALUES");
        assertEquals(List.of("1"), server.rows("SELECT id FROM public.parent_cascaded"), "identity restarted");
        assertEquals(List.of("1"), server.rows("SELECT id FROM public.other_cascaded"), "sequence restarted");
        assertEquals(List.of("0"), server.rows("SELECT count(*) FROM public.child_cascaded"), "cascaded");
    }

    @Test
    void aSourceCascadeDoesNotEmptyATargetOnlyTableByDefault() throws SQLException {
        truncationTables("kept");
        SQLException e;
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, false)) {
            e = assertThrows(SQLException.class, () -> applyAndCommit(session, truncation("kept", 15)));
            session.rollback();
        }
        assertTrue(e.getMessage().contains("Table \"child_kept\" references \"parent_kept\""), e.getMessage());
        assertTrue(e.getMessage().contains("truncate.cascade=true"), e.getMessage());
        assertEquals(List.of("1"), server.rows("SELECT count(*) FROM public.child_kept"), "the child keeps its row");
        assertEquals(List.of("2"), server.rows("SELECT count(*) FROM public.parent_kept"), "nothing truncated");

        server.execute("DROP TABLE public.child_kept");
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, false)) {
            applyAndCommit(session, truncation("kept", 16));
        }
        assertEquals(List.of("0"), server.rows("SELECT count(*) FROM public.parent_kept"), "without CASCADE");
    }

    /**
     * A truncate among other changes is no reason to give up the pipeline: what came before it is sent first, then the
     * truncate, then the rest, so the rows end as the source left them in one try.
     */
    @Test
    void aTruncateAmongOtherChangesKeepsTheirOrderInThePipeline() throws SQLException {
        server.execute(
                "CREATE TABLE public.trunc_mid (id int PRIMARY KEY, v text)",
                "CREATE TABLE public.trunc_other (id int PRIMARY KEY, v text)",
                "INSERT INTO public.trunc_mid VALUES (1, 'target one')");
        SourceTable mid = SourceTable.of("public", "trunc_mid", key("id", PgType.INT4), column("v", PgType.TEXT));
        SourceTable other = SourceTable.of("public", "trunc_other", key("id", PgType.INT4), column("v", PgType.TEXT));
        SourceTransaction tx = new TestTransaction(17, Lsn.parse("0/F000"))
                .insert(mid, mid.row(2, "before"))
                .insert(other, other.row(1, "other before"))
                .truncate(mid, false, false)
                .insert(mid, mid.row(2, "after"))
                .update(other, null, other.row(1, "other after"))
                .build();
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, false)) {
            applyAndCommit(session, tx);
            assertEquals(0, session.redone(), "applied as a pipeline, around the truncate");
        }
        assertEquals(List.of("2|after"), server.rows("SELECT * FROM public.trunc_mid"));
        assertEquals(List.of("1|other after"), server.rows("SELECT * FROM public.trunc_other"));
    }

    @Test
    void changesOnlyOneOfIdenticalRowsOfATableWithoutKey() throws SQLException {
        server.execute(
                "CREATE TABLE public.dupes (a int, doc json, b text)",
                "INSERT INTO public.dupes VALUES (1, '{\"k\": 1}', 'x'), (1, '{\"k\": 1}', 'x'), (2, null, 'x')");
        // REPLICA IDENTITY FULL: pgoutput flags every column as identity and sends the whole old row.
        SourceTable dupes = SourceTable.of(
                "public", "dupes", key("a", PgType.INT4), key("doc", PgType.JSON), key("b", PgType.TEXT));
        SourceTransaction tx = new TestTransaction(14, Lsn.parse("0/E000"))
                .update(dupes, dupes.row(1, "{\"k\": 1}", "x"), dupes.row(1, "{\"k\": 1}", "y"))
                .delete(dupes, dupes.row(2, null, "x"))
                .build();
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, false)) {
            applyAndCommit(session, tx);
        }
        assertEquals(List.of("1|x", "1|y"), server.rows("SELECT a, b FROM public.dupes ORDER BY a, b"));
    }

    @Test
    void aRowOfAPartitionedTableWithoutKeyIsFoundInItsOwnPartition() throws SQLException {
        // the first row of each partition: both have ctid (0,1)
        server.execute(
                "CREATE TABLE public.parted_log (at int, v int) PARTITION BY RANGE (at)",
                "CREATE TABLE public.parted_log_low PARTITION OF public.parted_log FOR VALUES FROM (0) TO (100)",
                "CREATE TABLE public.parted_log_high PARTITION OF public.parted_log FOR VALUES FROM (100) TO (200)",
                "INSERT INTO public.parted_log VALUES (50, 1), (150, 2)");
        SourceTable log = SourceTable.of("public", "parted_log", key("at", PgType.INT4), key("v", PgType.INT4));
        SourceTransaction tx = new TestTransaction(17, Lsn.parse("0/F800"))
                .update(log, log.row(150, 2), log.row(150, 3))
                .build();
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, false)) {
            applyAndCommit(session, tx);
        }
        assertEquals(List.of("50|1", "150|3"), server.rows("SELECT at, v FROM public.parted_log ORDER BY at"));
    }

    @Test
    void upsertsIntoAPartitionedTable() throws SQLException {
        server.execute(
                "CREATE TABLE public.parted (id int, at int, v int, PRIMARY KEY (id, at)) PARTITION BY RANGE (at)",
                "CREATE TABLE public.parted_low PARTITION OF public.parted FOR VALUES FROM (0) TO (100)",
                "INSERT INTO public.parted VALUES (1, 50, 1)");
        SourceTable parted = SourceTable.of(
                "public", "parted", key("id", PgType.INT4), key("at", PgType.INT4), column("v", PgType.INT4));
        int at = 50;
        SourceTransaction tx = new TestTransaction(18, Lsn.parse("0/F900"))
                .insert(parted, parted.row(1, at, 10))
                .update(parted, parted.row(2, at, null), parted.row(2, at, 20))
                .build();
        try (ApplySession session = open(server, ConflictPolicy.UPSERT, 100, false)) {
            applyAndCommit(session, tx);
        }
        assertEquals(List.of("1|50|10", "2|50|20"), server.rows("SELECT * FROM public.parted ORDER BY id"));
    }

    @Test
    void createsMissingTablesUnderAutoCreateAndForgetsThemOnRollback() throws SQLException {
        SourceTable created = orders("created");
        SourceTransaction tx = new TestTransaction(15, Lsn.parse("0/F000"))
                .insert(created, created.row(order(1, "1.00", List.of(), null, "one")))
                .build();
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, true)) {
            session.apply(tx, false);
            session.rollback();
            assertEquals(List.of(), server.rows("SELECT 1 FROM pg_class WHERE relname = 'created'"));
            applyAndCommit(session, tx);
        }
        assertEquals(List.of("1|1.00|{}|one"), server.rows("SELECT id, amount, tags, note FROM public.created"));
    }

    @Test
    void missingTableWithoutAutoCreateStopsNamingTheSetting() throws SQLException {
        SourceTable missing = orders("missing");
        SourceTransaction tx = new TestTransaction(16, Lsn.parse("0/10000"))
                .insert(missing, missing.row(order(1, null, null, null, null)))
                .build();
        try (ApplySession session = open(server, ConflictPolicy.ERROR, 100, false)) {
            ConnectException e = assertThrows(ConnectException.class, () -> session.apply(tx, false));
            assertTrue(e.getMessage().contains("public.missing"), e.getMessage());
            assertTrue(e.getMessage().contains("auto.create"), e.getMessage());
            session.rollback();
        }
    }
}
