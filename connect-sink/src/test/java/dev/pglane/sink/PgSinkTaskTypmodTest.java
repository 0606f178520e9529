package dev.pglane.sink;

import static dev.pglane.sink.TaskRecords.LEDGER_0;
import static dev.pglane.sink.TaskRecords.LEDGER_1;
import static dev.pglane.sink.TaskRecords.ROW;
import static dev.pglane.sink.TaskRecords.end;
import static dev.pglane.sink.TaskRecords.insert;
import static dev.pglane.sink.TaskRecords.source;
import static dev.pglane.sink.TaskRecords.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.apply.TargetServer;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.types.ColumnParameters;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A {@code __pglane.typmod} no source writes is the record's problem, found when the record is decoded: it goes to
 * the dead-letter queue, or the task stops naming it, instead of failing the apply of its transaction on every
 * restart.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PgSinkTaskTypmodTest {
    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private static final Map<String, String> EVOLVE = Map.of(PgSinkConfig.AUTO_EVOLVE, "true");

    private final TaskRecords feed = new TaskRecords();

    @BeforeEach
    void cleanTarget() throws SQLException {
        target.execute(
                "DROP TABLE IF EXISTS public.ledger, public.pglane_progress",
                "CREATE TABLE public.ledger (id int PRIMARY KEY, note text)");
    }

    /** The ledger's row with one more column, {@code amount}, of type {@code type} and typmod {@code typmod}. */
    private static Schema rowWithAmount(String type, String typmod) {
        SchemaBuilder row = SchemaBuilder.struct().name(ROW.name()).optional();
        for (Field field : ROW.fields()) {
            row.field(field.name(), field.schema());
        }
        Map<String, String> parameters = new HashMap<>();
        parameters.put(ColumnParameters.TYPE, type);
        parameters.put(ColumnParameters.TYPMOD, typmod);
        return row.field(
                        "amount",
                        SchemaBuilder.string().optional().parameters(parameters).build())
                .build();
    }

    /** An insert of row {@code id} into the ledger, carrying column {@code amount} of the given type. */
    private SinkRecord insertWithAmount(long xid, long order, int id, String type, String typmod) {
        Schema row = rowWithAmount(type, typmod);
        ChangeEvent event = ChangeEvent.builder(Op.CREATE, source(xid), new TransactionInfo(xid, order, order, null, 7))
                .after(new Struct(row).put("id", id).put("note", "with amount").put("amount", "1.5"))
                .build();
        return feed.change(LEDGER_1, event, new EnvelopeSchemas().forRow(row));
    }

    @Test
    void aTypmodThatIsNoNumberGoesToTheDeadLetterQueueAndItsTransactionAppliesWithoutIt() throws Exception {
        FakeSinkTaskContext context = SinkTaskHarness.context();
        List<SinkRecord> reported = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        context.reporter = (record, error) -> {
            reported.add(record);
            reasons.add(error.getMessage());
            return CompletableFuture.completedFuture(null);
        };
        PgSinkTask task = SinkTaskHarness.startTask(target, context, 1, EVOLVE);
        try {
            SinkRecord bad = insertWithAmount(906, 2, 2, "numeric(10,2)", "six");
            ConnectLoop connect = new ConnectLoop(task, context);
            connect.deliver(List.of(
                    feed.marker(start()),
                    feed.change(LEDGER_0, insert(906, 1, 1, "one")),
                    bad,
                    feed.marker(end(906, "0/6000", 2))));
            SinkTaskHarness.awaitProgress(target, connect, Lsn.parse("0/6000"));
            assertEquals(List.of(bad), reported);
            assertTrue(reasons.get(0).contains("column amount claims __pglane.typmod 'six'"), reasons::toString);
        } finally {
            task.stop();
        }
        assertEquals(List.of("1:one"), SinkTaskHarness.ledgerRows(target));
        assertEquals(
                List.of("id", "note"),
                target.rows("SELECT attname FROM pg_attribute WHERE attrelid ="
                        + " 'public.ledger'::regclass AND attnum > 0 ORDER BY attnum"));
    }

    @Test
    void withoutADeadLetterQueueATypmodOutOfItsTypesRangeStopsTheTaskNamingTheRecord() throws Exception {
        PgSinkTask task = SinkTaskHarness.startTask(target, SinkTaskHarness.context(), 1, EVOLVE);
        try {
            // numeric(65535,0): precision 65535, where PostgreSQL allows 1 to 1000
            String typmod = Integer.toString((65_535 << 16) + 4);
            List<SinkRecord> records = List.of(
                    feed.marker(start()),
                    feed.change(LEDGER_0, insert(907, 1, 1, "one")),
                    insertWithAmount(907, 2, 2, "numeric", typmod),
                    feed.marker(end(907, "0/7000", 2)));
            ConnectException e = assertThrows(ConnectException.class, () -> task.put(records));
            assertTrue(
                    e.getMessage()
                            .startsWith("record shop.public.ledger-1@0 is refused: column amount claims __pglane.typmod"
                                    + " '" + typmod + "'"),
                    e.getMessage());
        } finally {
            task.stop();
        }
        assertEquals(List.of(), SinkTaskHarness.ledgerRows(target));
    }
}
