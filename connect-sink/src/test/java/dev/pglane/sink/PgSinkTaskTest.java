package dev.pglane.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.RowSchemas;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
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
    private static final String PREFIX = "shop";
    private static final String MARKER_TOPIC = "shop.transactions";
    private static final String LEDGER_TOPIC = "shop.public.ledger";
    private static final TopicPartition MARKERS = new TopicPartition(MARKER_TOPIC, 0);
    private static final TopicPartition LEDGER_0 = new TopicPartition(LEDGER_TOPIC, 0);
    private static final TopicPartition LEDGER_1 = new TopicPartition(LEDGER_TOPIC, 1);
    private static final Schema ROW = RowSchemas.build(
            PREFIX,
            "public",
            "ledger",
            List.of(
                    new Column("id", PgColumnType.of(PgType.INT4, -1), true),
                    new Column("note", PgColumnType.of(PgType.TEXT, -1), false)),
            NumericMapping.PRECISE);
    private static final Schema ENVELOPE = new EnvelopeSchemas().forRow(ROW);

    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private final Map<TopicPartition, Long> nextOffset = new HashMap<>();

    @BeforeEach
    void cleanTarget() throws SQLException {
        target.execute("DROP TABLE IF EXISTS public.ledger, public.pglane_progress");
        target.execute("CREATE TABLE public.ledger (id int PRIMARY KEY, note text)");
    }

    @Test
    void appliesTransactionsInCommitOrderAndHoldsOffsetsUntilDurable() throws Exception {
        List<SinkRecord> records = new ArrayList<>();
        records.add(marker(new Marker.Start(7, 1_700_000_000_000L, Lsn.parse("0/100"))));
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
                    MARKERS, new OffsetAndMetadata(nextOffset.get(MARKERS)),
                    LEDGER_0, new OffsetAndMetadata(nextOffset.get(LEDGER_0)),
                    LEDGER_1, new OffsetAndMetadata(nextOffset.get(LEDGER_1)));
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
            task.put(List.of(marker(new Marker.Start(7, 1_700_000_000_000L, Lsn.parse("0/100"))), first));
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
        PgSinkTask task = startTask(context, 2, Map.of(PgSinkConfig.BUFFER_MAX_TRANSACTIONS, "40"));
        ConnectLoop connect = new ConnectLoop(task, context);
        try {
            connect.deliver(List.of(marker(new Marker.Start(7, 1_700_000_000_000L, Lsn.parse("0/100")))));
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
            connect.deliver(List.of(marker(new Marker.Start(7, 1_700_000_000_000L, Lsn.parse("0/100")))));
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
        return startTask(context, workers, Map.of());
    }

    private PgSinkTask startTask(FakeSinkTaskContext context, int workers, Map<String, String> settings) {
        Map<String, String> props = new HashMap<>(settings);
        props.put("name", "task-test");
        props.put("topics.regex", "shop\\..*");
        props.put(DatabaseSettings.HOST, "127.0.0.1");
        props.put(DatabaseSettings.PORT, Integer.toString(target.endpoint().port()));
        props.put(DatabaseSettings.NAME, "postgres");
        props.put(DatabaseSettings.USER, "postgres");
        props.put(DatabaseSettings.SSLMODE, "disable");
        props.put(PgSinkConfig.SOURCE_TOPIC_PREFIX, PREFIX);
        props.put(PgSinkConfig.APPLY_WORKERS, Integer.toString(workers));
        PgSinkTask task = new PgSinkTask();
        task.initialize(context);
        task.start(props);
        return task;
    }

    private static FakeSinkTaskContext context() {
        return new FakeSinkTaskContext(List.of(MARKERS, LEDGER_0, LEDGER_1));
    }

    /** Drives the task the way Connect's loop does until the target's progress reaches {@code lsn}. */
    private static void awaitProgress(ConnectLoop connect, Lsn lsn) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            connect.deliver(List.of());
            Lsn applied = progress();
            if (applied != null && applied.compareTo(lsn) >= 0) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("progress did not reach " + lsn + "; it is " + progress());
    }

    private static Lsn progress() throws SQLException {
        try (Connection c = target.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT to_regclass('public.pglane_progress') IS NOT NULL")) {
            rs.next();
            if (!rs.getBoolean(1)) {
                return null;
            }
            try (ResultSet p = st.executeQuery("SELECT end_lsn::text FROM public.pglane_progress")) {
                return p.next() ? Lsn.parse(p.getString(1)) : null;
            }
        }
    }

    private static List<String> rows() throws SQLException {
        return target.rows("SELECT id || ':' || note FROM public.ledger ORDER BY id");
    }

    private SinkRecord marker(Marker marker) {
        long offset = nextOffset.merge(MARKERS, 1L, Long::sum) - 1;
        return new SinkRecord(
                MARKER_TOPIC,
                0,
                TransactionKey.SCHEMA,
                TransactionKey.of(marker.keyXid()),
                MarkerCodec.SCHEMA,
                MarkerCodec.toStruct(marker),
                offset);
    }

    private SinkRecord change(TopicPartition partition, ChangeEvent event) {
        long offset = nextOffset.merge(partition, 1L, Long::sum) - 1;
        return new SinkRecord(
                partition.topic(),
                partition.partition(),
                TransactionKey.SCHEMA,
                TransactionKey.of(event.transaction().xid()),
                ENVELOPE,
                ChangeEnvelope.toStruct(event, ENVELOPE),
                offset);
    }

    private static Marker.End end(long xid, String endLsn, long count) {
        Lsn end = Lsn.parse(endLsn);
        return new Marker.End(
                7,
                xid,
                Lsn.valueOf(end.asLong() - 0x30),
                end,
                1_700_000_000_000_000L + xid,
                count,
                List.of(new DataCollectionCount("public.ledger", count, LEDGER_TOPIC)));
    }

    private static ChangeEvent insert(long xid, long order, int id, String note) {
        return ChangeEvent.builder(Op.CREATE, source(xid), new TransactionInfo(xid, order, order, null, 7))
                .after(row(id, note))
                .build();
    }

    private static ChangeEvent update(long xid, long order, int id, String note) {
        return ChangeEvent.builder(Op.UPDATE, source(xid), new TransactionInfo(xid, order, order, null, 7))
                .after(row(id, note))
                .build();
    }

    private static ChangeEvent delete(long xid, long order, int id) {
        return ChangeEvent.builder(Op.DELETE, source(xid), new TransactionInfo(xid, order, order, null, 7))
                .before(new Struct(ROW).put("id", id))
                .build();
    }

    private static Struct row(int id, String note) {
        return new Struct(ROW).put("id", id).put("note", note);
    }

    private static SourceInfo source(long xid) {
        return new SourceInfo(
                "0.1.0",
                PREFIX,
                "inventory",
                "public",
                "ledger",
                Timestamps.ofMicros(1_700_000_000_000_000L + xid),
                null,
                null,
                xid,
                Lsn.parse("0/800"),
                null);
    }
}
