package dev.pglane.source.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CapturedTablesTest {
    @Test
    void theTextListsTheOidsInOrderOnceAndReadsBack() {
        CapturedTables tables = CapturedTables.of(List.of(16390L, 16384L, 4294967295L, 16390L));
        assertEquals("16384,16390,4294967295", tables.toText());
        assertEquals(tables, CapturedTables.parse(tables.toText()));
        assertEquals(3, tables.size());
        assertTrue(tables.contains(4294967295L), "an OID above 2^31, as an unsigned relation id gives it");
        assertFalse(tables.contains(16385L));
        assertEquals(0, CapturedTables.parse("").size());
    }

    @Test
    void textThatIsNoListOfOidsIsRefusedNamingThePart() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> CapturedTables.parse("16384,public.t"));
        assertTrue(e.getMessage().contains("'public.t' is no OID"), e.getMessage());
    }
}
