package dev.pglane.wire.debezium;

import static dev.pglane.wire.debezium.DebeziumRecords.block;
import static dev.pglane.wire.debezium.DebeziumRecords.change;
import static dev.pglane.wire.debezium.DebeziumRecords.row;
import static dev.pglane.wire.debezium.DebeziumRecords.source;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.WireFormatException;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.types.ColumnParameters;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class DebeziumChangesTest {
    private static final String PLACEHOLDER = DebeziumChanges.DEFAULT_PLACEHOLDER;

    private final DebeziumChanges changes = new DebeziumChanges(PLACEHOLDER);

    @Test
    void aChangeBelongsToTheXidOfItsTransactionIdAtItsOrderInGenerationZero() {
        ChangeEvent event = changes.fromStruct(
                change("c", null, row(1, "a", "b"), source(571, 900, "false"), block("571:900", 3, 2)), () -> false);

        assertEquals(Op.CREATE, event.op());
        assertEquals(571, event.transaction().xid());
        assertEquals(3, event.transaction().totalOrder());
        assertEquals(2, event.transaction().dataCollectionOrder());
        assertEquals(0, event.transaction().generation());
        assertEquals(Lsn.valueOf(900), event.source().lsn());
        assertEquals("docs", event.source().table());
        assertEquals("b", event.after().get("body"));
        assertEquals(List.of(), event.unchangedToast());
    }

    @Test
    void everyFormOfThePlaceholderIsAnUnchangedToastValueAlsoInARequiredColumn() {
        Struct after = row(1, "new title", PLACEHOLDER)
                .put("tags", List.of(PLACEHOLDER))
                .put("blob", ByteBuffer.wrap(PLACEHOLDER.getBytes(StandardCharsets.UTF_8)));

        ChangeEvent event = changes.fromStruct(
                change("u", null, after, source(571, 900, "false"), block("571:900", 1, 1)), () -> false);

        assertEquals(List.of("body", "tags", "blob"), event.unchangedToast());
        assertNull(event.after().get("body"));
        assertEquals("new title", event.after().get("title"));
        assertTrue(event.after().schema().field("body").schema().isOptional());
    }

    @Test
    void aValueThatOnlyContainsThePlaceholderIsKept() {
        Struct after = row(1, "t", "x" + PLACEHOLDER).put("tags", List.of(PLACEHOLDER, "other"));

        ChangeEvent event = changes.fromStruct(
                change("u", null, after, source(571, 900, "false"), block("571:900", 1, 1)), () -> false);

        assertEquals(List.of(), event.unchangedToast());
        assertSame(after, event.after());
    }

    @Test
    void theRowsOfAKeylessRecordIdentifyTheRowByEveryColumn() {
        ChangeEvent event = changes.fromStruct(
                change("u", row(1, "t", "b"), row(1, "t2", "b"), source(571, 900, "false"), block("571:900", 1, 1)),
                () -> true);

        for (Struct row : List.of(event.before(), event.after())) {
            for (Field field : row.schema().fields()) {
                assertTrue(ColumnParameters.isKey(field.schema()), field.name());
            }
        }
        assertEquals("t", event.before().get("title"));
        assertEquals("t2", event.after().get("title"));
    }

    @Test
    void aSnapshotRowOrAChangeWithoutTransactionMetadataIsRefusedSayingWhatToDo() {
        assertRefused(change("r", null, row(1, "a", "b"), source(570, 800, "first"), null), "snapshot.mode=no_data");
        assertRefused(
                change("c", null, row(1, "a", "b"), source(571, 900, "false"), null),
                "provide.transaction.metadata=true");
    }

    @Test
    void aCreatedRowWithThePlaceholderIsRefusedSayingWhy() {
        assertRefused(
                change("c", null, row(2, "t", PLACEHOLDER), source(571, 900, "false"), block("571:900", 2, 2)),
                "a key change leaves unchanged TOAST values out");
    }

    @Test
    void aTransactionIdNamingAnotherXidThanTheSourceBlockIsRefused() {
        assertRefused(
                change("c", null, row(1, "a", "b"), source(571, 900, "false"), block("572:900", 1, 1)),
                "source.txId is 571");
    }

    private void assertRefused(Struct value, String message) {
        WireFormatException e = assertThrows(WireFormatException.class, () -> changes.fromStruct(value, () -> false));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
