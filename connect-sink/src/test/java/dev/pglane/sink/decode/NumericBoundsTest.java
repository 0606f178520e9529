package dev.pglane.sink.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.types.VariableScaleDecimal;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/** Decimals that would expand to millions of digits are refused before anything writes them out. */
class NumericBoundsTest {
    private static final Schema AMOUNTS = SchemaBuilder.array(
                    Decimal.builder(2).optional().build())
            .optional()
            .build();

    private static ChangeEvent insert(Schema row, Struct after) {
        SourceInfo source = new SourceInfo(
                "0.1.0", "shop", "db", "public", "t", Timestamps.ofMicros(0), null, null, 5L, Lsn.parse("0/10"), null);
        return ChangeEvent.builder(Op.CREATE, source, new TransactionInfo(5, 1, 1, null, 1))
                .after(after)
                .build();
    }

    private static String amounts(BigDecimal... values) {
        Schema row = SchemaBuilder.struct().field("amounts", AMOUNTS).build();
        return NumericBounds.problem(insert(row, new Struct(row).put("amounts", List.of(values))));
    }

    @Test
    void aDecimalWithAScaleOfABillionIsRefusedAtOnce() {
        assertNull(amounts(new BigDecimal("1.50"), new BigDecimal("9".repeat(20_000))));
        String problem = assertTimeoutPreemptively(
                Duration.ofSeconds(5), () -> amounts(new BigDecimal("1.50"), new BigDecimal("1E+999999999")));
        assertEquals(
                "after.amounts[] is a decimal of 1 digits and scale -999999999, beyond what a PostgreSQL numeric"
                        + " holds (131072 digits before the point, 16383 after)",
                problem);
    }

    @Test
    void aDecimalSchemaWhoseScaleIsOutOfRangeOrNoNumberIsRefused() {
        Schema huge = SchemaBuilder.struct()
                .field(
                        "amount",
                        Decimal.builder(2)
                                .parameter(Decimal.SCALE_FIELD, "2147483647")
                                .optional()
                                .build())
                .build();
        assertEquals(
                "after.amount is a decimal of scale 2147483647, beyond what a PostgreSQL numeric holds (131072 digits"
                        + " before the point, 16383 after)",
                NumericBounds.problem(insert(huge, new Struct(huge).put("amount", new BigDecimal("1.50")))));
        Schema text = SchemaBuilder.struct()
                .field(
                        "amount",
                        Decimal.builder(2)
                                .parameter(Decimal.SCALE_FIELD, "abc")
                                .optional()
                                .build())
                .build();
        assertEquals(
                "after.amount is a decimal whose scale 'abc' is no number",
                NumericBounds.problem(insert(text, new Struct(text).put("amount", new BigDecimal("1.50")))));
    }

    @Test
    void aVariableScaleDecimalOfAHugeScaleIsRefused() {
        Schema row = SchemaBuilder.struct()
                .field("n", VariableScaleDecimal.builder().optional().build())
                .build();
        Struct value = new Struct(row.field("n").schema())
                .put(VariableScaleDecimal.SCALE, Integer.MIN_VALUE)
                .put("value", new byte[] {1});
        assertEquals(
                "after.n has scale -2147483648, beyond what a PostgreSQL numeric holds (131072 digits before the point,"
                        + " 16383 after)",
                NumericBounds.problem(insert(row, new Struct(row).put("n", value))));
    }
}
