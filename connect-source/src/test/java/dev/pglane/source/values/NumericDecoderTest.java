package dev.pglane.source.values;

import static dev.pglane.source.values.PgTextServer.literal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.VariableScaleDecimal;
import java.math.BigDecimal;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** numeric and money in each numeric.mapping mode, as a real server prints them. */
class NumericDecoderTest {

    private static PgTextServer server;
    private static ColumnProbe precise;
    private static ColumnProbe string;
    private static ColumnProbe dbl;

    @BeforeAll
    static void start() {
        server = PgTextServer.start();
        server.execute("CREATE DOMAIN price AS numeric(10,2)");
        precise = new ColumnProbe(server, NumericMapping.PRECISE);
        string = new ColumnProbe(server, NumericMapping.STRING);
        dbl = new ColumnProbe(server, NumericMapping.DOUBLE);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void preciseConstrainedNumericIsADecimalOfTheColumnScale() {
        assertDecimal("numeric(10,2)", "1.5", new BigDecimal("1.50"));
        assertDecimal("numeric(10,2)", "-12345678.99", new BigDecimal("-12345678.99"));
        assertDecimal("numeric(10,2)", "0", new BigDecimal("0.00"));
        assertDecimal("numeric(5,-2)", "-1234.5", new BigDecimal("-12E+2"));
        assertDecimal("price", "12.5", new BigDecimal("12.50"));
        assertTrue(precise.decode("numeric(10,2)", "'NaN'").travelsAsText());
    }

    @Test
    void aValueBeyondTheDeclaredScaleIsAnErrorNotARounding() {
        assertThrows(ArithmeticException.class, () -> precise.decodeText("numeric(10,2)", "1.234"));
    }

    @Test
    void preciseUnconstrainedNumericKeepsEachValuesScale() {
        for (String value : new String[] {"123.4500", "-0.000000000000000000001", "98765432109876543210.5", "0"}) {
            Struct struct = (Struct) precise.value("numeric", value);
            assertEquals(new BigDecimal(value), VariableScaleDecimal.decode(struct), value);
            assertEquals(new BigDecimal(value).scale(), struct.getInt32(VariableScaleDecimal.SCALE), value);
            server.assertTrueOnServer(
                    literal(VariableScaleDecimal.decode(struct).toPlainString()) + "::numeric::text = (" + value
                            + ")::numeric::text");
        }
        for (String special : new String[] {"'NaN'", "'Infinity'", "'-Infinity'"}) {
            ColumnProbe.Decoded decoded = precise.decode("numeric", special);
            assertTrue(decoded.travelsAsText(), special);
            assertEquals(special.replace("'", ""), decoded.text());
        }
    }

    @Test
    void stringModeCarriesPostgresText() {
        assertEquals("1.50", string.value("numeric(10,2)", "1.5"));
        assertEquals("NaN", string.value("numeric(10,2)", "'NaN'"));
        assertEquals("-Infinity", string.value("numeric", "'-Infinity'"));
        assertEquals("0.000001000", string.value("numeric", "0.000001000"));
    }

    @Test
    void doubleModeRoundsAndSendsTheSpecialsAsText() {
        assertEquals(1.5, dbl.value("numeric(10,2)", "1.5"));
        assertTrue(dbl.decode("numeric", "'Infinity'").travelsAsText());
        assertTrue(dbl.decode("numeric", "'NaN'").travelsAsText());
        assertEquals(0.1, dbl.value("numeric", "0.1000"));
    }

    @Test
    void moneyUnderLcMonetaryC() {
        String[] values = {"-1234.56", "92233720368547758.07", "-92233720368547758.08", "0", "0.01"};
        for (String value : values) {
            ColumnProbe.Decoded decoded = precise.decode("money", literal(value));
            BigDecimal amount = (BigDecimal) decoded.value();
            assertEquals(new BigDecimal(value).setScale(2), amount, decoded.text());
            server.assertTrueOnServer(literal(amount.toPlainString()) + "::money = " + literal(value) + "::money");
        }
        assertEquals("-$1,234.56", precise.decode("money", "'-1234.56'").text());
        assertEquals("-1234.56", string.value("money", "'-1234.56'"));
        assertEquals(-1234.56, dbl.value("money", "'-1234.56'"));
    }

    @Test
    void moneyPrintedUnderAnotherLocaleIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> NumericDecoder.plainMoney("1.234,56 €"));
        assertThrows(IllegalArgumentException.class, () -> NumericDecoder.plainMoney("($1.00)"));
        assertThrows(IllegalArgumentException.class, () -> NumericDecoder.plainMoney("1-"));
    }

    private static void assertDecimal(String type, String literal, BigDecimal expected) {
        BigDecimal value = (BigDecimal) precise.value(type, literal);
        assertEquals(expected, value, type + " " + literal);
        assertEquals(expected.scale(), value.scale());
        server.assertTrueOnServer(
                literal(value.toPlainString()) + "::" + type + "::text = " + "(" + literal + ")::" + type + "::text");
    }
}
