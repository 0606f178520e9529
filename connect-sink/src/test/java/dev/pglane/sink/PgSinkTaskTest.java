package dev.pglane.sink;

import static dev.pglane.sink.TaskRecords.LEDGER_0;
import static dev.pglane.sink.TaskRecords.LEDGER_1;
import static dev.pglane.sink.TaskRecords.LEDGER_TOPIC;
import static dev.pglane.sink.TaskRecords.MARKERS;
import static dev.pglane.sink.TaskRecords.delete;
import static dev.pglane.sink.TaskRecords.end;
import static dev.pglane.sink.TaskRecords.insert;
import static dev.pglane.sink.TaskRecords.start;
import static dev.pglane.sink.TaskRecords.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.apply.TargetServer;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.marker.Marker;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The task as Connect drives it — put(), preCommit(), a restart — against a real PostgreSQL target, with
 * records built by the wire contract's own encoders.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PgSinkTaskTest {
    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private final TaskRecords feed = new TaskRecords();

    @BeforeEach
    void cleanTarget() throws SQLException {
        target.execute("DROP TABLE IF EXISTS public.ledger, public.pglane_progress");
        target.execute("CREATE TABLE public.ledger (id int PRIMARY KEY, note text)");
    }

    @Test
    void appliesTransactionsInCommitOrderAndHoldsOffsetsUntilDurable() throws Exception {
        List<SinkRecord> records = new ArrayList<>();
        records.add(marker(start()));
        // xid 501 inserts 1 and 2 on two partitions; xid 502 updates 1 and deletes 2; xid 503 inserts 3.
        records.add(change(LEDGER_1, insert(501, 2, 2, "two")));
        records.add(change(LEDGER_0, insert(501, 1, 1, "one")));
        records.add(change(LEDGER_0, update(502, 1, 1, "one, updated")));
        records.add(marker(end(501, "0/1000", 2)));
        records.add(change(LEDGER_0, delete(502, 2, 2)));
        records.add(marker(end(502, "0/2000", 2)));
        records.add(change(LEDGER_1, insert(503, 1, 3, "three")));
        records.add(marker(end(503, "0/3000", 1)));

        FakeSinkTaskContext context = context();
        PgSinkTask task = startTask(context, 4);
        try {
            task.put(records);
            awaitProgress(new ConnectLoop(task, context), Lsn.parse("0/3000"));
            assertEquals(List.of("1:one, updated", "3:three"), rows());

            Map<TopicPartition, OffsetAndMetadata> consumed = Map.of(
                    MARKERS, new OffsetAndMetadata(feed.nextOffset.get(MARKERS)),
                    LEDGER_0, new OffsetAndMetadata(feed.nextOffset.get(LEDGER_0)),
                    LEDGER_1, new OffsetAndMetadata(feed.nextOffset.get(LEDGER_1)));
            assertEquals(consumed, task.preCommit(consumed), "everything is durable: offsets may move to the end");
        } finally {
            task.stop();
        }

        // A restarted task that Kafka gives the same records again applies nothing twice.
        target.execute("UPDATE public.ledger SET note = 'changed on the target' WHERE id = 3");
        FakeSinkTaskContext restartedContext = context();
        PgSinkTask restarted = startTask(restartedContext, 2);
        try {
            restarted.put(records);
            restarted.put(List.of(change(LEDGER_0, insert(504, 1, 4, "four")), marker(end(504, "0/4000", 1))));
            awaitProgress(new ConnectLoop(restarted, restartedContext), Lsn.parse("0/4000"));
            assertEquals(List.of("1:one, updated", "3:changed on the target", "4:four"), rows());
        } finally {
            restarted.stop();
        }
    }

    @Test
    void anIncompleteTransactionHoldsBackTheOffsetsOfItsRecords() throws Exception {
        FakeSinkTaskContext context = context();
        PgSinkTask task = startTask(context, 2);
        try {
            SinkRecord first = change(LEDGER_0, insert(601, 1, 10, "ten"));
            task.put(List.of(marker(start()), first));
            // END says two records; only one has arrived, so nothing applies and the offsets stay.
            task.put(List.of(marker(end(601, "0/5000", 2))));
            Map<TopicPartition, OffsetAndMetadata> consumed =
                    Map.of(MARKERS, new OffsetAndMetadata(2), LEDGER_0, new OffsetAndMetadata(1));
            Map<TopicPartition, OffsetAndMetadata> committable = task.preCommit(consumed);
            assertEquals(new OffsetAndMetadata(1), committable.get(MARKERS), "held at the END marker");
            assertEquals(new OffsetAndMetadata(0), committable.get(LEDGER_0), "held at the first record");

            task.put(List.of(change(LEDGER_1, insert(601, 2, 11, "eleven"))));
            awaitProgress(new ConnectLoop(task, context), Lsn.parse("0/5000"));
            assertEquals(List.of("10:ten", "11:eleven"), rows());
        } finally {
            task.stop();
        }
    }

    @Test
    void partitionsThatRunAheadPauseUntilTheOthersCatchUp() throws Exception {
        FakeSinkTaskContext context = context();
        // buffer.max.transactions 40: the assembler holds at most 16 copies before it pauses partitions
        PgSinkTask task = startTask(context, 2, Map.of(BufferingSettings.BUFFER_MAX_TRANSACTIONS, "40"));
        ConnectLoop connect = new ConnectLoop(task, context);
        try {
            connect.deliver(List.of(marker(start())));
            List<SinkRecord> records = new ArrayList<>();
            List<SinkRecord> ends = new ArrayList<>();
            for (int i = 1; i <= 40; i++) {
                records.add(change(i % 2 == 0 ? LEDGER_0 : LEDGER_1, insert(800 + i, 1, i, "row " + i)));
                ends.add(marker(end(800 + i, "0/" + Integer.toHexString(0x1000 * i), 1)));
            }
            connect.deliver(records.subList(0, 20));
            assertEquals(Set.of(LEDGER_0, LEDGER_1), context.paused, "records ahead of their ENDs: markers flow");

            connect.deliver(ends);
            assertEquals(Set.of(MARKERS), context.paused, "ENDs ahead of their records: the ledger topic flows");

            connect.deliver(records.subList(20, 40));
            awaitProgress(connect, Lsn.parse("0/28000"));
            assertEquals(Set.of(), context.paused);
            assertEquals(40, rows().size());
        } finally {
            task.stop();
        }
    }

    @Test
    void lostTargetConnectionsAreRetriedAndNothingIsLostOrAppliedTwice() throws Exception {
        FakeSinkTaskContext context = context();
        PgSinkTask task = startTask(context, 3);
        ConnectLoop connect = new ConnectLoop(task, context);
        try {
            connect.deliver(List.of(marker(start())));
            connect.deliver(List.of(change(LEDGER_0, insert(701, 1, 1, "one")), marker(end(701, "0/1000", 1))));
            awaitProgress(connect, Lsn.parse("0/1000"));

            // The target ends every session of the sink, as a restart or a network cut would.
            target.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'pglane-task-test%'");
            List<SinkRecord> more = new ArrayList<>();
            for (int i = 2; i <= 20; i++) {
                more.add(change(i % 2 == 0 ? LEDGER_0 : LEDGER_1, insert(700 + i, 1, i, "row " + i)));
                more.add(marker(end(700 + i, "0/" + Integer.toHexString(0x1000 * i), 1)));
            }
            connect.deliver(more);
            awaitProgress(connect, Lsn.parse("0/14000"));

            assertTrue(connect.retriableFailures > 0, "the lost sessions surfaced as a retriable failure");
            assertEquals(20, rows().size(), "every row once: an insert applied twice would have failed the task");
        } finally {
            task.stop();
        }
    }

    @Test
    void anUndecodableChangeWithoutDeadLetterQueueStopsTheTaskNamingTheRecord() {
        PgSinkTask task = startTask(context(), 1);
        try {
            SinkRecord bad =
                    new SinkRecord(LEDGER_TOPIC, 1, TransactionKey.SCHEMA, TransactionKey.of(9), null, "garbage", 41);
            ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of(bad)));
            assertTrue(e.getMessage().contains("shop.public.ledger-1@41"), e.getMessage());
            assertTrue(e.getMessage().contains("dead-letter"), e.getMessage());
        } finally {
            task.stop();
        }
    }

    @Test
    void anUndecodableChangeTheReporterRefusesStopsTheTaskNamingTheRecord() {
        FakeSinkTaskContext context = context();
        // what Connect's reporter does under errors.tolerance=none
        context.reporter = (record, error) -> {
            throw new ConnectException("Tolerance exceeded in error handler", error);
        };
        PgSinkTask task = startTask(context, 1);
        try {
            SinkRecord bad =
                    new SinkRecord(LEDGER_TOPIC, 1, TransactionKey.SCHEMA, TransactionKey.of(9), null, "garbage", 41);
            ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of(bad)));
            assertTrue(e.getMessage().contains("shop.public.ledger-1@41 is not a pglane change"), e.getMessage());
        } finally {
            task.stop();
        }
    }

    private PgSinkTask startTask(FakeSinkTaskContext context, int workers) {
        return SinkTaskHarness.startTask(target, context, workers, Map.of());
    }

    private PgSinkTask startTask(FakeSinkTaskContext context, int workers, Map<String, String> settings) {
        return SinkTaskHarness.startTask(target, context, workers, settings);
    }

    private static FakeSinkTaskContext context() {
        return SinkTaskHarness.context();
    }

    private static void awaitProgress(ConnectLoop connect, Lsn lsn) throws Exception {
        SinkTaskHarness.awaitProgress(target, connect, lsn);
    }

    private static List<String> rows() throws SQLException {
        return SinkTaskHarness.ledgerRows(target);
    }

    private SinkRecord marker(Marker marker) {
        return feed.marker(marker);
    }

    private SinkRecord change(TopicPartition partition, ChangeEvent event) {
        return feed.change(partition, event);
    }
}
