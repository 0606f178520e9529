package dev.pglane.sink;

import static dev.pglane.sink.TaskRecords.LEDGER_0;
import static dev.pglane.sink.TaskRecords.LEDGER_1;
import static dev.pglane.sink.TaskRecords.LEDGER_TOPIC;
import static dev.pglane.sink.TaskRecords.asJsonBytes;
import static dev.pglane.sink.TaskRecords.end;
import static dev.pglane.sink.TaskRecords.insert;
import static dev.pglane.sink.TaskRecords.start;
import static dev.pglane.sink.TaskRecords.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.apply.TargetServer;
import dev.pglane.sink.decode.DecodeSettings;
import dev.pglane.wire.Lsn;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * payload.format=json against a real target: the task receives the bytes Kafka's JsonConverter writes, decodes
 * them on its decode threads, and applies what the same records as Connect data would apply.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PgSinkTaskJsonPayloadTest {
    private static final Map<String, String> JSON =
            Map.of(DecodeSettings.PAYLOAD_FORMAT, "json", DecodeSettings.DECODE_THREADS, "2");

    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private final TaskRecords feed = new TaskRecords();

    @BeforeEach
    void cleanTarget() throws SQLException {
        target.execute("DROP TABLE IF EXISTS public.ledger, public.pglane_progress");
        target.execute("CREATE TABLE public.ledger (id int PRIMARY KEY, note text)");
    }

    @Test
    void recordsAsBytesDecodedOnSeveralThreadsApplyInCommitOrder() throws Exception {
        // 400 transactions in one batch, big enough for three slices: each inserts a row on one partition and
        // updates the row of the transaction before it on the other, so a record decoded out of order would show
        List<SinkRecord> records = new ArrayList<>();
        records.add(feed.marker(start()));
        for (int xid = 1000; xid < 1400; xid++) {
            int id = xid - 1000;
            records.add(feed.change(id % 2 == 0 ? LEDGER_0 : LEDGER_1, insert(xid, 1, id, "new " + id)));
            int count = 1;
            if (id > 0) {
                records.add(feed.change(id % 2 == 0 ? LEDGER_1 : LEDGER_0, update(xid, 2, id - 1, "kept " + (id - 1))));
                count = 2;
            }
            records.add(feed.marker(end(xid, Lsn.valueOf(0x10000 + id * 0x100L).toString(), count)));
        }
        FakeSinkTaskContext context = SinkTaskHarness.context();
        PgSinkTask task = SinkTaskHarness.startTask(target, context, 4, JSON);
        try {
            task.put(records.stream().map(TaskRecords::asJsonBytes).toList());
            SinkTaskHarness.awaitProgress(target, new ConnectLoop(task, context), Lsn.valueOf(0x10000 + 399 * 0x100L));
            List<String> expected = new ArrayList<>(
                    IntStream.range(0, 399).mapToObj(id -> id + ":kept " + id).toList());
            expected.add("399:new 399");
            assertEquals(
                    expected.stream().sorted().toList(),
                    SinkTaskHarness.ledgerRows(target).stream().sorted().toList());
        } finally {
            task.stop();
        }
    }

    @Test
    void bytesThatAreNotAPglaneChangeGoToTheDeadLetterQueueAndTheirTransactionCompletesWithoutThem() throws Exception {
        FakeSinkTaskContext context = SinkTaskHarness.context();
        List<SinkRecord> reported = new ArrayList<>();
        List<Throwable> causes = new ArrayList<>();
        context.reporter = (record, error) -> {
            reported.add(record);
            causes.add(error);
            return null;
        };
        PgSinkTask task = SinkTaskHarness.startTask(target, context, 1, JSON);
        try {
            SinkRecord good = asJsonBytes(feed.change(LEDGER_0, insert(701, 1, 1, "one")));
            SinkRecord keyOf701 = asJsonBytes(feed.change(LEDGER_1, insert(701, 2, 2, "two")));
            SinkRecord bad = new SinkRecord(
                    LEDGER_TOPIC, 1, null, keyOf701.key(), null, "{\"schema\":".getBytes(StandardCharsets.UTF_8), 41);
            task.put(List.of(
                    asJsonBytes(feed.marker(start())), good, bad, asJsonBytes(feed.marker(end(701, "0/7000", 2)))));
            SinkTaskHarness.awaitProgress(target, new ConnectLoop(task, context), Lsn.parse("0/7000"));
            assertEquals(List.of("1:one"), SinkTaskHarness.ledgerRows(target));
            assertEquals(1, reported.size());
            assertSame(bad, reported.get(0));
            assertTrue(
                    causes.get(0).getMessage().contains("serialization error"),
                    causes.get(0).getMessage());
        } finally {
            task.stop();
        }
    }

    @Test
    void aValueAConverterAlreadyConvertedStopsTheTaskNamingTheConverterToSet() {
        PgSinkTask task = SinkTaskHarness.startTask(target, SinkTaskHarness.context(), 1, JSON);
        try {
            SinkRecord converted = feed.marker(start());
            ConnectException e = assertThrows(ConnectException.class, () -> task.put(List.of(converted)));
            assertTrue(
                    e.getMessage().contains("shop.transactions-0@0 arrived as org.apache.kafka.connect.data.Struct"),
                    e.getMessage());
            assertTrue(
                    e.getMessage().contains("org.apache.kafka.connect.converters.ByteArrayConverter"), e.getMessage());
        } finally {
            task.stop();
        }
    }
}
