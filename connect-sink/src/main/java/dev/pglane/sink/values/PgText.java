package dev.pglane.sink.values;

import dev.pglane.wire.types.Bits;
import dev.pglane.wire.types.ColumnParameters;
import dev.pglane.wire.types.EpochDate;
import dev.pglane.wire.types.GeoPoint;
import dev.pglane.wire.types.MicroDuration;
import dev.pglane.wire.types.MicroTime;
import dev.pglane.wire.types.MicroTimestamp;
import dev.pglane.wire.types.StringSemantics;
import dev.pglane.wire.types.VariableScaleDecimal;
import dev.pglane.wire.types.ZonedTimestamp;
import java.time.DateTimeException;
import java.util.List;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Turns a Connect value of the wire contract back into PostgreSQL's text input form, so the sink
 * binds every parameter as text and the server parses it into the target column's type: the mirror
 * of the source's {@code values} package (docs/wire-format.md §7).
 *
 * <p>The schema's semantic name decides first (Decimal, dates and times, Bits, point), then its Connect type; where
 * one Connect type stands for PostgreSQL types with different input texts ({@code bit(1)} and {@code boolean},
 * {@code hstore} and {@code json}, double-mode {@code money} and {@code double precision}), the column's
 * {@code __pglane.type} parameter settles it. STRING values are PostgreSQL text already and pass through.
 *
 * <p>The text is input for the column's own type: bound untyped (pgjdbc {@code setObject(i, text, Types.OTHER)}),
 * the server infers that type from the statement. It does not depend on the session's {@code DateStyle},
 * {@code IntervalStyle} or {@code TimeZone}; {@code money} is plain digits with a {@code .}, which the server reads
 * under {@code lc_monetary=C} or any locale whose decimal point is {@code .}.
 */
public final class PgText {

    private PgText() {}

    /**
     * The PostgreSQL text input for {@code value} of a column field with {@code schema}, or {@code null}
     * for SQL NULL.
     *
     * @throws DataException naming the column type if the value does not fit the schema
     */
    public static String of(Schema schema, Object value) {
        FormattedType type = new FormattedType(ColumnParameters.pgType(schema));
        try {
            return render(schema, type, value);
        } catch (ClassCastException | IllegalArgumentException | ArithmeticException | DateTimeException e) {
            throw new DataException(
                    "cannot write a " + value.getClass().getSimpleName() + " of field schema " + describe(schema)
                            + " as PostgreSQL text: " + e.getMessage(),
                    e);
        }
    }

    /** {@link #of} for a column value or an array element of the column type {@code type}. */
    static String render(Schema schema, FormattedType type, Object value) {
        if (value == null) {
            return null;
        }
        if (schema.type() == Schema.Type.ARRAY) {
            return ArrayText.of(schema, type, (List<?>) value);
        }
        String named = schema.name() == null ? null : bySemanticName(schema, type, value);
        return named != null ? named : byConnectType(schema, type, value);
    }

    /** The text of a value whose semantic name decides its form, or {@code null} if the name does not. */
    private static String bySemanticName(Schema schema, FormattedType type, Object value) {
        return switch (schema.name()) {
            case Decimal.LOGICAL_NAME, VariableScaleDecimal.NAME -> NumericText.of(schema, value);
            case EpochDate.NAME -> TemporalText.date((Integer) value);
            case MicroTime.NAME -> MicroTime.format((Long) value);
            case MicroDuration.NAME -> value + " microseconds";
            case MicroTimestamp.NAME -> TemporalText.timestamp((Long) value);
            case ZonedTimestamp.NAME -> TemporalText.timestampWithOffset((String) value);
            case Bits.NAME -> BinaryText.bits(schema, value);
            case GeoPoint.NAME -> point(GeoPoint.fromStruct((Struct) value));
            case StringSemantics.JSON -> type.isHstore() ? HstoreText.fromJson((String) value) : null;
            default -> null;
        };
    }

    private static String byConnectType(Schema schema, FormattedType type, Object value) {
        return switch (schema.type()) {
            case BOOLEAN -> type.isBit() ? BinaryText.bitFlag(value) : (Boolean) value ? "t" : "f";
            case INT8, INT16, INT32, INT64 -> ((Number) value).toString();
            case FLOAT32 -> ((Float) value).toString();
            case FLOAT64 -> type.isNumeric() ? NumericText.of(schema, value) : ((Double) value).toString();
            case STRING -> (String) value;
            case BYTES -> BinaryText.bytea(value);
            default -> throw new IllegalArgumentException("no PostgreSQL text for a " + schema.type() + " field");
        };
    }

    /** A {@code point}: {@code (x,y)}; Java prints digits that read back as the same double, exponent included. */
    private static String point(GeoPoint point) {
        return "(" + point.x() + "," + point.y() + ")";
    }

    private static String describe(Schema schema) {
        String pgType = ColumnParameters.pgType(schema);
        return schema.type()
                + (schema.name() == null ? "" : " " + schema.name())
                + (pgType == null ? "" : " (" + pgType + ")");
    }
}
