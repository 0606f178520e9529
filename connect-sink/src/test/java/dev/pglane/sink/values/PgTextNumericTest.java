package dev.pglane.sink.values;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.VariableScaleDecimal;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code numeric} and {@code money} in each {@code numeric.mapping} mode, written through {@link PgText} into a real
 * PostgreSQL 17 column. NaN and ±Infinity of precise and double modes travel in {@code text_values}, outside PgText;
 * string mode carries them in the field.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PgTextNumericTest {

    private static final Schema VARIABLE =
            VariableScaleDecimal.builder().optional().build();

    @RegisterExtension
    static final RoundTripServer target = new RoundTripServer();

    @Test
    void preciseDecimalsKeepTheirScale() throws Exception {
        assertEquals(
                "-12345678.90", target.assertWrites("numeric(10,2)", new BigDecimal("-12345678.90"), "-12345678.90"));
        target.assertWrites("numeric(10,2)", new BigDecimal("0.00"), "0.00");
        target.assertWrites(
                "numeric(38,0)",
                new BigDecimal("99999999999999999999999999999999999999"),
                "99999999999999999999999999999999999999");
        target.assertWrites("numeric(5,5)", new BigDecimal("0.00001"), "0.00001");
        target.assertWrites("price", new BigDecimal("19.99"), "19.99");
    }

    @Test
    void preciseDecimalAsUnscaledBytes() throws Exception {
        // Without a converter's logical-type step a Decimal arrives as its unscaled two's-complement bytes.
        byte[] unscaled = BigInteger.valueOf(-1234567890L).toByteArray();
        assertEquals("-12345678.90", target.assertWrites("numeric(10,2)", unscaled, "-12345678.90"));
    }

    @Test
    void unconstrainedNumericFromVariableScaleStructs() throws Exception {
        target.assertWrites(
                "numeric", variable("123456789012345678901234567890123", 5), "1234567890123456789012345678.90123");
        target.assertWrites("numeric", variable("15000", 4), "1.5000");
        target.assertWrites("numeric", variable("-1", 5), "-0.00001");
        assertEquals("0", target.assertWrites("numeric", variable("0", 0), "0"));
    }

    @Test
    void stringModeCarriesPostgresTextIncludingSpecials() throws Exception {
        target.assertWrites("numeric", NumericMapping.STRING, "12.3400", "12.3400");
        target.assertWrites("numeric", NumericMapping.STRING, "NaN", "NaN");
        target.assertWrites("numeric", NumericMapping.STRING, "-Infinity", "-Infinity");
        target.assertWrites("numeric(10,2)", NumericMapping.STRING, "-0.50", "-0.50");
    }

    @Test
    void doubleModeWritesPlainDigits() throws Exception {
        assertEquals("0.1", target.assertWrites("numeric", NumericMapping.DOUBLE, 0.1, "0.1"));
        assertEquals("100000000000000000000", target.assertWrites("numeric", NumericMapping.DOUBLE, 1e20, "1e20"));
        assertEquals("0.00000015", target.assertWrites("numeric", NumericMapping.DOUBLE, 1.5e-7, "0.00000015"));
        target.assertWrites("numeric(10,2)", NumericMapping.DOUBLE, 12.5, "12.50");
    }

    @Test
    void doubleModeSpecialsReadAsPostgresSpecials() throws Exception {
        target.assertWrites("numeric", NumericMapping.DOUBLE, Double.NaN, "NaN");
        target.assertWrites("numeric", NumericMapping.DOUBLE, Double.NEGATIVE_INFINITY, "-Infinity");
    }

    @Test
    void moneyInEveryMode() throws Exception {
        assertEquals("-1234.56", target.assertWrites("money", new BigDecimal("-1234.56"), "-1234.56"));
        target.assertWrites("money", new BigDecimal("92233720368547758.07"), "92233720368547758.07");
        target.assertWrites("money", NumericMapping.STRING, "-1234.56", "-1234.56");
        assertEquals("10000000000", target.assertWrites("money", NumericMapping.DOUBLE, 1e10, "10000000000"));
    }

    private static Struct variable(String unscaled, int scale) {
        return VariableScaleDecimal.encode(new BigDecimal(new BigInteger(unscaled), scale), VARIABLE);
    }
}
