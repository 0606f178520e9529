package dev.pglane.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SourceOffsetTest {

    @Test
    void partitionIsTheServerName() {
        assertEquals(Map.of("server", "shop"), SourceOffset.partition("shop"));
    }

    @Test
    void roundTripsInsideATransaction() {
        SourceOffset offset = new SourceOffset(Lsn.parse("FFFFFFFF/10"), 7, 4_000_000_000L, 12L, Lsn.parse("1/2"));
        Map<String, Object> map = offset.toMap();
        assertEquals(Lsn.parse("FFFFFFFF/10").asLong(), map.get("commit_end_lsn"));
        assertEquals(7L, map.get("generation"));
        assertEquals(12L, map.get("ordinal"));
        assertEquals(offset, SourceOffset.fromMap(map));
    }

    @Test
    void roundTripsBetweenTransactions() {
        SourceOffset offset = SourceOffset.between(Lsn.parse("0/16B3748"), 1);
        assertEquals(Map.of("commit_end_lsn", 0x16B3748L, "generation", 1L), offset.toMap());
        SourceOffset back = SourceOffset.fromMap(offset.toMap());
        assertEquals(offset, back);
        assertNull(back.xid());
        assertNull(back.changeLsn());
    }

    @Test
    void carriesTheSnapshotAndTheCapturedTablesAsText() {
        SourceOffset offset =
                new SourceOffset(Lsn.valueOf(0x40), 3, null, null, null, "2 s1 ...", "16384,16390", "a2V5");
        Map<String, Object> map = offset.toMap();
        assertEquals("2 s1 ...", map.get("snapshot"));
        assertEquals("16384,16390", map.get("tables"));
        assertEquals("a2V5", map.get("message_key"));
        assertEquals(offset, SourceOffset.fromMap(map));
        assertNull(
                SourceOffset.fromMap(SourceOffset.between(Lsn.valueOf(0x40), 3).toMap())
                        .tables());
    }

    @Test
    void acceptsIntegersFromJsonOffsetStores() {
        Map<String, Object> map = new HashMap<>();
        map.put("commit_end_lsn", 100);
        map.put("generation", 2);
        map.put("xid", 5);
        assertEquals(new SourceOffset(Lsn.valueOf(100), 2, 5L, null, null), SourceOffset.fromMap(map));
    }

    @Test
    void errorsNameTheKey() {
        WireFormatException missing =
                assertThrows(WireFormatException.class, () -> SourceOffset.fromMap(Map.of("generation", 1L)));
        assertEquals(
                "source offset field 'commit_end_lsn': required key is missing (value: null)", missing.getMessage());

        WireFormatException type = assertThrows(
                WireFormatException.class,
                () -> SourceOffset.fromMap(Map.of("commit_end_lsn", 1L, "generation", "one")));
        assertTrue(
                type.getMessage().contains("'generation'") && type.getMessage().contains("one"), type.getMessage());

        WireFormatException negative = assertThrows(
                WireFormatException.class, () -> SourceOffset.fromMap(Map.of("commit_end_lsn", 1L, "generation", -1L)));
        assertTrue(negative.getMessage().contains("'generation'"), negative.getMessage());

        WireFormatException ordinal = assertThrows(
                WireFormatException.class,
                () -> SourceOffset.fromMap(Map.of("commit_end_lsn", 1L, "generation", 1L, "ordinal", 1.5)));
        assertTrue(ordinal.getMessage().contains("'ordinal'"), ordinal.getMessage());
        assertThrows(WireFormatException.class, () -> SourceOffset.fromMap(null));
    }
}
