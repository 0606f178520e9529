package dev.pglane.sink;

import static dev.pglane.sink.TaskRecords.LEDGER_0;
import static dev.pglane.sink.TaskRecords.LEDGER_1;
import static dev.pglane.sink.TaskRecords.ROW;
import static dev.pglane.sink.TaskRecords.end;
import static dev.pglane.sink.TaskRecords.insert;
import static dev.pglane.sink.TaskRecords.sourceNaming;
import static dev.pglane.sink.TaskRecords.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.apply.TargetServer;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.marker.Marker;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What records from a hostile or confused writer, a second task under the same name, or a source on another server
 * can make the task do to a real target: refused records change nothing, and the task stops naming the cause.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PgSinkTaskTrustTest {
    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private final TaskRecords feed = new TaskRecords();

    @BeforeEach
    void cleanTarget() throws SQLException {
        target.execute(
                "DROP TABLE IF EXISTS public.ledger, public.other, public.pglane_progress",
                "CREATE TABLE public.ledger (id int PRIMARY KEY, note text)",
                "CREATE TABLE public.other (id int PRIMARY KEY, note text)");
    }

    /** An insert on the ledger's topic whose source block names {@code schema.table}. */
    private static ChangeEvent forged(String schema, String table, long xid, long order, int id) {
        return ChangeEvent.builder(
                        Op.CREATE, sourceNaming(schema, table, xid), new TransactionInfo(xid, order, order, null, 7))
                .after(new Struct(ROW).put("id", id).put("note", "forged"))
                .build();
    }

    @Test
    void aRecordCannotNameAnotherTableThanItsTopicCarries() throws SQLException {
        PgSinkTask task = SinkTaskHarness.startTask(target, SinkTaskHarness.context(), 1, Map.of());
        try {
            List<SinkRecord> records = List.of(
                    feed.marker(start()),
                    feed.change(LEDGER_0, forged("public", "other", 901, 1, 1)),
                    feed.marker(end(901, "0/1000", 1)));
            ConnectException e = assertThrows(ConnectException.class, () -> task.put(records));
            assertTrue(
                    e.getMessage()
                            .startsWith("record shop.public.ledger-0@0 is refused: it came on topic shop.public.ledger"
                                    + " but names source table public.other"),
                    e.getMessage());
        } finally {
            task.stop();
        }
        assertEquals(List.of(), target.rows("SELECT id FROM public.other UNION ALL SELECT id FROM public.ledger"));
    }

    @Test
    void aRecordCannotReachASystemCatalog() throws SQLException {
        List<String> roles = target.rows("SELECT rolname, rolsuper FROM pg_authid ORDER BY 1");
        PgSinkTask task = SinkTaskHarness.startTask(target, SinkTaskHarness.context(), 1, Map.of());
        try {
            TopicPartition authid = new TopicPartition("shop.pg_catalog.pg_authid", 0);
            List<SinkRecord> records = List.of(
                    feed.marker(start()),
                    feed.change(authid, forged("pg_catalog", "pg_authid", 902, 1, 1)),
                    feed.marker(end(902, "0/1000", 1)));
            ConnectException e = assertThrows(ConnectException.class, () -> task.put(records));
            assertTrue(
                    e.getMessage().contains("is refused: source table pg_catalog.pg_authid is in a system schema"),
                    e.getMessage());
        } finally {
            task.stop();
        }
        assertEquals(roles, target.rows("SELECT rolname, rolsuper FROM pg_authid ORDER BY 1"));
    }

    @Test
    void aRefusedRecordGoesToTheDeadLetterQueueAndItsTransactionAppliesWithoutIt() throws Exception {
        FakeSinkTaskContext context = SinkTaskHarness.context();
        List<SinkRecord> reported = new ArrayList<>();
        context.reporter = (record, error) -> {
            reported.add(record);
            return CompletableFuture.completedFuture(null);
        };
        PgSinkTask task = SinkTaskHarness.startTask(target, context, 2, Map.of());
        try {
            SinkRecord forgery = feed.change(LEDGER_1, forged("public", "other", 903, 2, 2));
            ConnectLoop connect = new ConnectLoop(task, context);
            connect.deliver(List.of(
                    feed.marker(start()),
                    feed.change(LEDGER_0, insert(903, 1, 1, "one")),
                    forgery,
                    feed.marker(end(903, "0/3000", 2))));
            SinkTaskHarness.awaitProgress(target, connect, Lsn.parse("0/3000"));
            assertEquals(List.of(forgery), reported);
        } finally {
            task.stop();
        }
        assertEquals(List.of("1:one"), SinkTaskHarness.ledgerRows(target));
        assertEquals(List.of(), target.rows("SELECT id FROM public.other"));
    }

    /**
     * A zombie: a task under the same name that read the applied position before the live task moved it, and now
     * applies the same transactions. With upsert nothing stops it but the fenced progress write.
     */
    @Test
    void aSecondTaskUnderTheSameNameFailsAndAppliesNothingTwice() throws Exception {
        Map<String, String> upsert = Map.of(PgSinkConfig.CONFLICT_POLICY, "upsert");
        List<SinkRecord> records = List.of(
                feed.marker(start()),
                feed.change(LEDGER_0, insert(904, 1, 1, "one")),
                feed.marker(end(904, "0/4000", 1)),
                feed.change(LEDGER_1, insert(905, 1, 2, "two")),
                feed.marker(end(905, "0/5000", 1)));
        FakeSinkTaskContext zombieContext = SinkTaskHarness.context();
        PgSinkTask zombie = SinkTaskHarness.startTask(target, zombieContext, 2, upsert);
        FakeSinkTaskContext liveContext = SinkTaskHarness.context();
        PgSinkTask live = SinkTaskHarness.startTask(target, liveContext, 2, upsert);
        try {
            zombie.put(List.of(records.get(0))); // opens its pipeline: nothing applied yet
            ConnectLoop liveLoop = new ConnectLoop(live, liveContext);
            liveLoop.deliver(records);
            SinkTaskHarness.awaitProgress(target, liveLoop, Lsn.parse("0/5000"));
            target.execute("UPDATE public.ledger SET note = 'changed on the target'");

            ConnectLoop zombieLoop = new ConnectLoop(zombie, zombieContext);
            ConnectException e = assertThrows(ConnectException.class, () -> {
                zombieLoop.deliver(records.subList(1, records.size()));
                for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); System.nanoTime() < deadline; ) {
                    zombieLoop.deliver(List.of());
                    Thread.onSpinWait();
                }
            });
            assertTrue(
                    e.getMessage().contains("Another task applies to this target as sink task-test"), e.getMessage());
        } finally {
            zombie.stop();
            live.stop();
        }
        assertEquals(List.of("1:changed on the target", "2:changed on the target"), SinkTaskHarness.ledgerRows(target));
        assertEquals(Lsn.parse("0/5000"), SinkTaskHarness.progress(target));
    }

    @Test
    void aSourceOnAnotherServerUnderTheSamePrefixStopsTheSinkNamingBoth() throws Exception {
        FakeSinkTaskContext context = SinkTaskHarness.context();
        PgSinkTask task = SinkTaskHarness.startTask(target, context, 1, Map.of());
        try {
            ConnectLoop connect = new ConnectLoop(task, context);
            connect.deliver(List.of(
                    feed.marker(new Marker.Start(7, 0L, Lsn.parse("0/100"), "7000000000000000001", 1L)),
                    feed.change(LEDGER_0, insert(906, 1, 1, "one")),
                    feed.marker(end(906, "0/6000", 1))));
            SinkTaskHarness.awaitProgress(target, connect, Lsn.parse("0/6000"));
        } finally {
            task.stop();
        }
        // a new task reads the server from the progress row; the source now reads a fresh server
        PgSinkTask restarted = SinkTaskHarness.startTask(target, SinkTaskHarness.context(), 1, Map.of());
        try {
            SinkRecord fresh = feed.marker(new Marker.Start(8, 0L, Lsn.parse("0/200"), "7000000000000000002", 1L));
            ConnectException e = assertThrows(ConnectException.class, () -> restarted.put(List.of(fresh)));
            assertTrue(
                    e.getMessage().contains("now reads PostgreSQL system 7000000000000000002 timeline 1"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("applied from system 7000000000000000001 timeline 1"), e.getMessage());
            assertTrue(e.getMessage().contains("end LSN 0/6000"), e.getMessage());
        } finally {
            restarted.stop();
        }
    }
}
