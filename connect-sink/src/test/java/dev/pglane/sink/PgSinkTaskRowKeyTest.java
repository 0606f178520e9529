package dev.pglane.sink;

import static dev.pglane.sink.TaskRecords.LEDGER_0;
import static dev.pglane.sink.TaskRecords.LEDGER_1;
import static dev.pglane.sink.TaskRecords.LEDGER_TOPIC;
import static dev.pglane.sink.TaskRecords.delete;
import static dev.pglane.sink.TaskRecords.end;
import static dev.pglane.sink.TaskRecords.insert;
import static dev.pglane.sink.TaskRecords.keyMoveDelete;
import static dev.pglane.sink.TaskRecords.keyedByRow;
import static dev.pglane.sink.TaskRecords.move;
import static dev.pglane.sink.TaskRecords.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.sink.decode.DecodeSettings;
import dev.pglane.wire.Lsn;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Changes keyed by row (the source's record.key=row): a transaction's records spread over the partitions their rows
 * hash to, tombstones among them, the xid in a header. The sink rebuilds the transactions all the same.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PgSinkTaskRowKeyTest {

    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private final TaskRecords feed = new TaskRecords();

    @BeforeEach
    void cleanTarget() throws SQLException {
        target.execute("DROP TABLE IF EXISTS public.ledger, public.pglane_progress");
        target.execute("CREATE TABLE public.ledger (id int PRIMARY KEY, note text)");
    }

    private static Map<String, String> settings(PayloadFormat format) {
        return Map.of(DecodeSettings.PAYLOAD_FORMAT, format.name().toLowerCase(java.util.Locale.ROOT));
    }

    private static UnaryOperator<SinkRecord> delivered(PayloadFormat format) {
        return format == PayloadFormat.JSON ? TaskRecords::asJsonBytes : UnaryOperator.identity();
    }

    @ParameterizedTest
    // Avro needs a schema registry: AvroPipelineIT runs it against a real one
    @EnumSource(
            value = PayloadFormat.class,
            names = {"CONNECT", "JSON"})
    void transactionsSpreadOverRowPartitionsApplyAndTombstonesAndKeyMovesDeletesChangeNothing(PayloadFormat format)
            throws Exception {
        List<SinkRecord> records = new ArrayList<>();
        records.add(feed.marker(start()));
        // xid 801 inserts rows 1 and 2 on different partitions; 802 deletes 2, whose tombstone follows, and moves
        // 1 to key 3, which a key move's delete and a tombstone of key 1 precede
        records.add(keyedByRow(feed.change(LEDGER_1, insert(801, 1, 1, "one"))));
        records.add(keyedByRow(feed.change(LEDGER_0, insert(801, 2, 2, "two"))));
        records.add(feed.marker(end(801, "0/8100", 2)));
        records.add(keyedByRow(feed.change(LEDGER_0, delete(802, 1, 2))));
        records.add(feed.tombstone(LEDGER_0, 2, 802));
        records.add(keyedByRow(feed.change(LEDGER_1, keyMoveDelete(802, 1))));
        records.add(feed.tombstone(LEDGER_1, 1, 802));
        records.add(keyedByRow(feed.change(LEDGER_0, move(802, 2, 1, 3, "uno"))));
        records.add(feed.marker(end(802, "0/8200", 2)));
        FakeSinkTaskContext context = SinkTaskHarness.context();
        PgSinkTask task = SinkTaskHarness.startTask(target, context, 2, settings(format));
        try {
            task.put(records.stream().map(delivered(format)).toList());
            SinkTaskHarness.awaitProgress(target, new ConnectLoop(task, context), Lsn.parse("0/8200"));
            assertEquals(List.of("3:uno"), SinkTaskHarness.ledgerRows(target));
        } finally {
            task.stop();
        }
    }

    /** A poison record has no readable envelope: its header names its transaction, which completes without it. */
    @ParameterizedTest
    // Avro needs a schema registry: AvroPipelineIT runs it against a real one
    @EnumSource(
            value = PayloadFormat.class,
            names = {"CONNECT", "JSON"})
    void aPoisonRecordKeyedByRowIsCountedAgainstTheTransactionItsHeaderNames(PayloadFormat format) throws Exception {
        FakeSinkTaskContext context = SinkTaskHarness.context();
        List<SinkRecord> reported = new ArrayList<>();
        context.reporter = (record, error) -> {
            reported.add(record);
            return null;
        };
        UnaryOperator<SinkRecord> delivered = delivered(format);
        SinkRecord good = delivered.apply(keyedByRow(feed.change(LEDGER_0, insert(901, 1, 1, "one"))));
        SinkRecord second = keyedByRow(feed.change(LEDGER_1, insert(901, 2, 2, "two")));
        SinkRecord poison = new SinkRecord(
                LEDGER_TOPIC,
                1,
                second.keySchema(),
                second.key(),
                null,
                format == PayloadFormat.JSON ? "{\"schema\":".getBytes(java.nio.charset.StandardCharsets.UTF_8) : "x",
                second.kafkaOffset(),
                null,
                org.apache.kafka.common.record.TimestampType.NO_TIMESTAMP_TYPE,
                second.headers());
        PgSinkTask task = SinkTaskHarness.startTask(target, context, 1, settings(format));
        try {
            task.put(List.of(
                    delivered.apply(feed.marker(start())),
                    good,
                    poison,
                    delivered.apply(feed.marker(end(901, "0/9100", 2)))));
            SinkTaskHarness.awaitProgress(target, new ConnectLoop(task, context), Lsn.parse("0/9100"));
            assertEquals(List.of("1:one"), SinkTaskHarness.ledgerRows(target));
            assertEquals(1, reported.size());
            assertSame(poison, reported.get(0));
        } finally {
            task.stop();
        }
    }
}
