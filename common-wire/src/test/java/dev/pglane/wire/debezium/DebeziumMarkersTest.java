package dev.pglane.wire.debezium;

import static dev.pglane.wire.debezium.DebeziumRecords.collection;
import static dev.pglane.wire.debezium.DebeziumRecords.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.WireFormatException;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import java.util.List;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class DebeziumMarkersTest {
    private static final TopicNames TOPICS = TopicNames.debezium("shop");

    @Test
    void anEndIsTheTransactionsEndAtTheLsnOfItsIdWithEachTableOnItsDefaultTopic() {
        Marker marker = DebeziumMarkers.fromStruct(
                metadata(
                        "END",
                        "571:53195832",
                        3L,
                        List.of(collection("public.docs", 2), collection("Sales Dept.order lines", 1))),
                TOPICS);

        Marker.End end = (Marker.End) marker;
        assertEquals(571, end.xid());
        assertEquals(0, end.generation());
        assertEquals(Lsn.valueOf(53_195_832L), end.endLsn());
        assertEquals(1_700_000_000_000_000L, end.commitTsUs());
        assertEquals(3, end.eventCount());
        assertEquals(
                List.of(
                        new DataCollectionCount("public.docs", 2, "shop.public.docs"),
                        new DataCollectionCount("Sales Dept.order lines", 1, "shop.Sales_Dept.order_lines")),
                end.dataCollections());
    }

    @Test
    void aBeginNamesItsXid() {
        Marker marker = DebeziumMarkers.fromStruct(metadata("BEGIN", "571:53195000", null, null), TOPICS);

        assertEquals(new Marker.Begin(0L, 571, Lsn.INVALID, 1_700_000_000_000_000L), marker);
    }

    @Test
    void anEndWhoseCountsDoNotAddUpOrWhoseIdIsNotXidColonLsnIsRefused() {
        assertRefused(metadata("END", "571:53195832", 4L, List.of(collection("public.docs", 3))), "event_count");
        assertRefused(metadata("END", "571", 3L, List.of(collection("public.docs", 3))), "<xid>:<lsn>");
        assertRefused(metadata("END", "-1:53195832", 3L, List.of(collection("public.docs", 3))), "<xid>:<lsn>");
        assertRefused(metadata("ABORT", "571:1", null, null), "BEGIN or END");
    }

    private static void assertRefused(Struct value, String message) {
        WireFormatException e =
                assertThrows(WireFormatException.class, () -> DebeziumMarkers.fromStruct(value, TOPICS));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
