package dev.pglane.wire.marker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.WireFormatException;
import dev.pglane.wire.Xid;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class MarkerCodecTest {

    @Test
    void everyKindRoundTrips() {
        for (Marker marker : MarkerSamples.all()) {
            assertEquals(marker, MarkerCodec.fromStruct(MarkerCodec.toStruct(marker)), marker.toString());
        }
    }

    @Test
    void endCarriesDebeziumAndPglaneFields() {
        Struct struct = MarkerCodec.toStruct(MarkerSamples.end());
        assertEquals("dev.pglane.wire.Marker", struct.schema().name());
        assertEquals("END", struct.getString("status"));
        assertEquals("4000000000", struct.getString("id"));
        assertEquals(4_000_000_000L, struct.getInt64("xid"));
        assertEquals(5L, struct.getInt64("event_count"));
        assertEquals(1_700_000_000_123L, struct.getInt64("ts_ms"));
        assertEquals(1_700_000_000_123_456L, struct.getInt64("commit_ts_us"));
        assertEquals(Lsn.parse("FFFFFFFF/130").asLong(), struct.getInt64("end_lsn"));
        assertEquals(4L, struct.getInt64("generation"));
        List<Struct> collections = struct.getArray("data_collections");
        assertEquals("public.orders", collections.get(0).getString("data_collection"));
        assertEquals(3L, collections.get(0).getInt64("event_count"));
        assertEquals("shop.public.orders", collections.get(0).getString("topic"));
        assertNull(struct.get("subxid"));
        assertNull(struct.get("lsn"));
    }

    @Test
    void aSnapshotChunksEndSaysWhereTheSnapshotStands() {
        Struct snapshot = MarkerCodec.toStruct(MarkerSamples.snapshotEnd()).getStruct("snapshot");
        assertEquals("1700000000000", snapshot.getString("snapshot_id"));
        assertEquals("public.orders", snapshot.getString("table"));
        assertEquals(7L, snapshot.getInt64("chunk"));
        assertTrue(snapshot.getBoolean("table_done"));
        assertTrue(snapshot.getBoolean("snapshot_done"));
        assertEquals(List.of("region", "id"), snapshot.getStruct("range").getArray("columns"));
        assertEquals(List.of("eu", "70"), snapshot.getStruct("range").getArray("lower"));
        assertNull(snapshot.getStruct("range").get("upper"), "to the table's end");
        assertNull(MarkerCodec.toStruct(MarkerSamples.end()).get("snapshot"));
        assertThrows(IllegalArgumentException.class, () -> new SnapshotChunk("1", "public.orders", 0, false, true));
        assertNull(snapshot.get("table_start"), "sent only when true, as older sources left it out");
        Marker.End read = (Marker.End) MarkerCodec.fromStruct(MarkerCodec.toStruct(MarkerSamples.snapshotEnd()));
        assertFalse(read.snapshot().tableStart());
    }

    @Test
    void onlyAChunkFromTheTablesStartMayOpenAReadOfTheWholeTable() {
        Struct first = MarkerCodec.toStruct(MarkerSamples.tableStartEnd());
        assertEquals(Boolean.TRUE, first.getStruct("snapshot").get("table_start"));
        Struct forged = MarkerCodec.toStruct(MarkerSamples.snapshotEnd());
        forged.getStruct("snapshot").put("table_start", true);
        assertEquals(
                "marker snapshot field 'table_start': chunk 7 of public.orders cannot open a read of the whole table"
                        + " without a range from the table's start (value: true)",
                failure(forged));
    }

    @Test
    void aMarkerOfANewerSchemaVersionIsRefusedNamingTheVersion() {
        Schema newer = SchemaBuilder.struct()
                .name(MarkerCodec.SCHEMA_NAME)
                .version(MarkerCodec.VERSION + 1)
                .field("status", Schema.STRING_SCHEMA)
                .build();
        WireFormatException e = assertThrows(
                WireFormatException.class, () -> MarkerCodec.fromStruct(new Struct(newer).put("status", "END")));
        assertTrue(e.getMessage().contains("version " + (MarkerCodec.VERSION + 1)), e.getMessage());
        assertTrue(e.getMessage().contains("upgrade the consumer"), e.getMessage());
    }

    @Test
    void startAndHeartbeatAreKeyedOutsideTransactions() {
        Struct start = MarkerCodec.toStruct(new Marker.Start(9, 1000L, Lsn.parse("0/10")));
        assertEquals("START", start.getString("status"));
        assertNull(start.get("id"));
        assertNull(start.get("xid"));
        assertEquals(0x10L, start.getInt64("lsn"));
        assertEquals(9L, start.getInt64("generation"));
        assertEquals(Xid.NONE, new Marker.Heartbeat(9, 1000L, Lsn.parse("0/10")).keyXid());
        assertEquals(4_000_000_000L, MarkerSamples.end().keyXid());
    }

    @Test
    void abortTellsTopLevelFromSubtransaction() {
        assertTrue(new Marker.Abort(1, 0, 571, 571, Lsn.INVALID).isTopLevel());
        assertFalse(new Marker.Abort(1, 0, 571, 580, Lsn.INVALID).isTopLevel());
    }

    @Test
    void endCountsMustAddUp() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new Marker.End(
                        1, 5, Lsn.INVALID, Lsn.INVALID, 0, 2, List.of(new DataCollectionCount("a.b", 1, "t"))));
        assertTrue(e.getMessage().contains("event_count 2"), e.getMessage());
        Struct struct = MarkerCodec.toStruct(MarkerSamples.end()).put("event_count", 6L);
        assertEquals(
                "marker field 'event_count': differs from the sum 5 of data_collections (value: 6)", failure(struct));
    }

    @Test
    void malformedMarkersNameTheField() {
        assertEquals(
                "marker field 'status': unknown status, expected BEGIN, END, ABORT, START or HEARTBEAT (value: COMMIT)",
                failure(MarkerCodec.toStruct(MarkerSamples.end()).put("status", "COMMIT")));
        assertEquals(
                "marker field 'end_lsn': required field is missing (value: null)",
                failure(MarkerCodec.toStruct(MarkerSamples.end()).put("end_lsn", null)));
        assertEquals(
                "marker field 'data_collections': required for END (value: null)",
                failure(MarkerCodec.toStruct(MarkerSamples.end()).put("data_collections", null)));
        assertEquals(
                "marker field 'id': must be the xid 571 in decimal (value: 571:53195829)",
                failure(MarkerCodec.toStruct(MarkerSamples.all().get(0)).put("id", "571:53195829")));
        assertEquals(
                "marker field 'subxid': required field is missing (value: null)",
                failure(MarkerCodec.toStruct(MarkerSamples.all().get(2)).put("subxid", null)));
        assertEquals(
                "marker field 'lsn': required field is missing (value: null)",
                failure(MarkerCodec.toStruct(MarkerSamples.all().get(4)).put("lsn", null)));
        assertEquals(
                "marker field 'generation': must be at least 0 (value: -1)",
                failure(MarkerCodec.toStruct(MarkerSamples.all().get(5)).put("generation", -1L)));
        assertEquals("marker: expected a Struct named dev.pglane.wire.Marker but got java.lang.String", failure("END"));
    }

    @Test
    void malformedDataCollectionEntry() {
        Struct struct = MarkerCodec.toStruct(MarkerSamples.end());
        List<Struct> entries = struct.getArray("data_collections");
        entries.get(1).put("event_count", 0L);
        assertEquals(
                "marker data_collections entry field 'event_count': must be at least 1 (value: 0)", failure(struct));
    }

    private static String failure(Object value) {
        return assertThrows(WireFormatException.class, () -> MarkerCodec.fromStruct(value))
                .getMessage();
    }
}
