package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.Test;

class RowSchemasTest {

    @Test
    void oneOptionalFieldPerColumnInOrder() {
        Schema row = RowSchemas.build(
                "shop",
                "Sales Data",
                "order lines",
                List.of(
                        new Column("line id", PgColumnType.of(PgType.INT8, -1), true),
                        new Column("sku", PgColumnType.of(PgType.VARCHAR, 36), true),
                        new Column("qty", PgColumnType.of(PgType.INT4, -1), false)),
                NumericMapping.PRECISE);
        assertEquals("shop.Sales_Data.order_lines.Value", row.name());
        assertTrue(row.isOptional());
        assertEquals(
                List.of("line id", "sku", "qty"),
                row.fields().stream().map(Field::name).toList());
        assertTrue(ColumnParameters.isKey(row.field("sku").schema()));
        assertEquals(
                "character varying(32)",
                ColumnParameters.pgType(row.field("sku").schema()));
        assertTrue(row.fields().stream().allMatch(f -> f.schema().isOptional()));
    }

    @Test
    void rejectsDuplicateColumns() {
        List<Column> columns = List.of(
                new Column("a", PgColumnType.of(PgType.INT4, -1), false),
                new Column("a", PgColumnType.of(PgType.TEXT, -1), false));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> RowSchemas.build("p", "s", "t", columns, NumericMapping.PRECISE));
        assertEquals("table s.t has column 'a' twice", e.getMessage());
    }
}
