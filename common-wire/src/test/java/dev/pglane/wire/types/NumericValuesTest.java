package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class NumericValuesTest {

    private static Schema column(int typmod, NumericMapping mode) {
        return ColumnSchemas.forColumn(PgColumnType.of(PgType.NUMERIC, typmod), false, mode);
    }

    private static final int NUMERIC_10_2 = (10 << 16 | 2) + 4;

    @Test
    void preciseDecimalRescalesExactly() {
        Schema schema = column(NUMERIC_10_2, NumericMapping.PRECISE);
        assertEquals(new BigDecimal("12.50"), NumericValues.encode(new BigDecimal("12.5"), schema));
        assertThrows(ArithmeticException.class, () -> NumericValues.encode(new BigDecimal("1.234"), schema));
        assertEquals(new BigDecimal("12.50"), NumericValues.decode(new BigDecimal("12.50"), schema));
    }

    @Test
    void unconstrainedKeepsEveryDigitAndScale() {
        Schema schema = column(-1, NumericMapping.PRECISE);
        BigDecimal big = new BigDecimal("-123456789012345678901234567890.000000000000000000001");
        Struct struct = (Struct) NumericValues.encode(big, schema);
        assertEquals(21, struct.getInt32("scale"));
        assertEquals(big, NumericValues.decode(struct, schema));
        BigDecimal wholeHundreds = new BigDecimal("1E+2");
        assertEquals(wholeHundreds, NumericValues.decode(NumericValues.encode(wholeHundreds, schema), schema));
    }

    @Test
    void specialsInEachMode() {
        assertNull(NumericValues.encodeSpecial("NaN", column(-1, NumericMapping.PRECISE)), "precise: use text_values");
        assertNull(NumericValues.encodeSpecial("Infinity", column(NUMERIC_10_2, NumericMapping.PRECISE)));
        assertEquals("-Infinity", NumericValues.encodeSpecial("-Infinity", column(-1, NumericMapping.STRING)));
        assertNull(NumericValues.encodeSpecial("NaN", column(-1, NumericMapping.DOUBLE)), "double: use text_values");
        assertNull(NumericValues.encodeSpecial("-Infinity", column(-1, NumericMapping.DOUBLE)));
        assertTrue(NumericValues.isSpecial(Double.POSITIVE_INFINITY));
        assertTrue(NumericValues.isSpecial("NaN"));
        assertFalse(NumericValues.isSpecial("1.5"));
        assertNull(NumericValues.decode("Infinity", column(-1, NumericMapping.STRING)));
        assertThrows(
                IllegalArgumentException.class,
                () -> NumericValues.encodeSpecial("nan", column(-1, NumericMapping.STRING)));
    }

    @Test
    void stringAndDoubleModes() {
        Schema string = column(-1, NumericMapping.STRING);
        assertEquals(
                "100000000000000000000.5", NumericValues.encode(new BigDecimal("1.000000000000000000005E+20"), string));
        assertEquals(new BigDecimal("0.10"), NumericValues.decode("0.10", string));
        Schema dbl = column(-1, NumericMapping.DOUBLE);
        assertEquals(0.1, NumericValues.encode(new BigDecimal("0.1"), dbl));
        assertEquals(new BigDecimal("0.1"), NumericValues.decode(0.1, dbl));
    }
}
