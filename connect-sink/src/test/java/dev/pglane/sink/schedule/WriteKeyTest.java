package dev.pglane.sink.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pglane.sink.target.TableName;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class WriteKeyTest {
    private static final TableName T = new TableName("public", "t");

    @Test
    void integralNumbersOfAnyWidthAreTheSameKey() {
        WriteKey fromInt4 = new WriteKey(T, List.of("id"), List.of(5));
        assertEquals(fromInt4, new WriteKey(T, List.of("id"), List.of(5L)));
        assertEquals(fromInt4, new WriteKey(T, List.of("id"), List.of((short) 5)));
        assertEquals(List.of(5L), fromInt4.values());
    }

    @Test
    void bytesCompareByContent() {
        WriteKey key = new WriteKey(T, List.of("k"), List.of(new byte[] {1, 2}));
        assertEquals(key, new WriteKey(T, List.of("k"), List.of(new byte[] {1, 2})));
        assertNotEquals(key, new WriteKey(T, List.of("k"), List.of(new byte[] {1, 3})));
    }

    @Test
    void columnOrderDoesNotMatter() {
        WriteKey ab = new WriteKey(T, List.of("a", "b"), List.of(1, "x"));
        WriteKey ba = new WriteKey(T, List.of("b", "a"), List.of("x", 1));
        assertEquals(ab, ba);
        assertEquals(List.of("a", "b"), ba.columns());
        assertEquals(List.of(1L, "x"), ba.values());
    }

    @Test
    void otherValuesStayAsTheyAre() {
        WriteKey key = new WriteKey(T, List.of("n"), List.of(new BigDecimal("1.50")));
        assertEquals(List.of(new BigDecimal("1.50")), key.values());
        assertNotEquals(key, new WriteKey(T, List.of("other"), List.of(new BigDecimal("1.50"))));
        assertNotEquals(key, new WriteKey(new TableName("public", "u"), List.of("n"), List.of(new BigDecimal("1.50"))));
    }

    @Test
    void columnsAndValuesMustPair() {
        assertThrows(IllegalArgumentException.class, () -> new WriteKey(T, List.of("a", "b"), List.of(1)));
    }
}
