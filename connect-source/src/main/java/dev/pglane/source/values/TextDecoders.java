package dev.pglane.source.values;

import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import java.util.Locale;
import org.apache.kafka.connect.data.Schema;

/**
 * Chooses the decoder of a column once, from its PostgreSQL type and the field schema that
 * {@code ColumnSchemas} built for it. Where the schema already encodes a choice (the {@code numeric.mapping} and
 * {@code interval.handling.mode} settings, {@code bit(1)} versus {@code bit(n)}), the decoder follows the schema, so value and schema cannot disagree.
 */
final class TextDecoders {

    private TextDecoders() {}

    /**
     * @param type the column type (domains are decoded as their base type)
     * @param schema the column's field schema, or for an array element the array's value schema
     */
    static TextDecoder forType(PgColumnType type, Schema schema) {
        PgColumnType t = type.resolved();
        if (t.isArray()) {
            return new ArrayDecoder(forType(t.element(), schema.valueSchema()), delimiter(t.element()));
        }
        if (t.isEnum()) {
            return TextDecoder.TEXT;
        }
        PgType builtin = t.builtin();
        if (builtin == null) {
            // Extension and other catalog types, recognised by name as ColumnSchemas does.
            return t.name().toLowerCase(Locale.ROOT).equals("hstore") ? HstoreDecoder.INSTANCE : TextDecoder.TEXT;
        }
        return switch (builtin) {
            case BOOL -> ScalarDecoder.BOOL;
            case INT2 -> ScalarDecoder.INT16;
            case INT4 -> ScalarDecoder.INT32;
            case INT8, OID, XID, CID -> ScalarDecoder.INT64;
            case XID8 -> ScalarDecoder.UNSIGNED_INT64;
            case FLOAT4 -> ScalarDecoder.FLOAT32;
            case FLOAT8 -> ScalarDecoder.FLOAT64;
            case NUMERIC -> NumericDecoder.numeric(schema);
            case MONEY -> NumericDecoder.money(schema);
            case BYTEA -> ScalarDecoder.BYTEA;
            case DATE -> DateTimeDecoder.DATE;
            case TIME -> DateTimeDecoder.TIME;
            case TIMETZ -> DateTimeDecoder.TIMETZ;
            case TIMESTAMP -> DateTimeDecoder.TIMESTAMP;
            case TIMESTAMPTZ -> DateTimeDecoder.TIMESTAMPTZ;
            case INTERVAL ->
                schema.type() == Schema.Type.INT64 ? ScalarDecoder.INTERVAL_MICROS : ScalarDecoder.INTERVAL;
            case BIT -> bit(schema);
            case POINT -> new PointDecoder(schema);
            default -> TextDecoder.TEXT;
        };
    }

    /** {@code bit(1)} is a BOOLEAN field, {@code bit(n)} a Bits BYTES field, {@code bit} without length text. */
    private static TextDecoder bit(Schema schema) {
        return switch (schema.type()) {
            case BOOLEAN -> ScalarDecoder.BIT_FLAG;
            case BYTES -> ScalarDecoder.BITS;
            default -> TextDecoder.TEXT;
        };
    }

    /** {@code pg_type.typdelim}: {@code ;} for {@code box} (whose text holds commas), {@code ,} for the rest. */
    private static char delimiter(PgColumnType element) {
        return element.resolved().builtin() == PgType.BOX ? ';' : ',';
    }
}
