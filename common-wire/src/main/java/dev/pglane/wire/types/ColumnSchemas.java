package dev.pglane.wire.types;

import java.util.Locale;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Chooses the Connect schema of a column from its PostgreSQL type: the mapping table of
 * docs/wire-format.md. Every mapping is lossless; values a typed schema cannot hold travel in the
 * envelope's {@code text_values}. Column fields are always optional (a column may be NULL or an
 * unchanged TOAST value) and carry the {@link ColumnParameters}.
 */
public final class ColumnSchemas {

    /** Connect's parameter for a Decimal's declared precision (also used by Debezium). */
    public static final String DECIMAL_PRECISION = "connect.decimal.precision";

    private ColumnSchemas() {}

    /** The field schema of a column, numerics as {@code mode} says and the rest as by default. */
    public static Schema forColumn(PgColumnType type, boolean key, NumericMapping mode) {
        return forColumn(type, key, ValueMappings.of(mode));
    }

    /** The field schema of a column. */
    public static Schema forColumn(PgColumnType type, boolean key, ValueMappings mappings) {
        SchemaBuilder builder = valueSchema(type, mappings)
                .optional()
                .parameter(ColumnParameters.TYPE, type.resolved().formatted())
                .parameter(
                        ColumnParameters.OID, Integer.toString(type.resolved().oid()));
        if (type.resolved().typmod() >= 0) {
            builder.parameter(
                    ColumnParameters.TYPMOD, Integer.toString(type.resolved().typmod()));
        }
        if (key) {
            builder.parameter(ColumnParameters.KEY, "true");
        }
        return builder.build();
    }

    /** The schema of a value of {@code type}, without the column parameters and not yet optional. */
    static SchemaBuilder valueSchema(PgColumnType type, ValueMappings mappings) {
        PgColumnType t = type.resolved();
        if (t.isArray()) {
            Schema element = valueSchema(t.element(), mappings).optional().build();
            return SchemaBuilder.array(element);
        }
        if (t.isEnum()) {
            return StringSemantics.builder(StringSemantics.ENUM)
                    .parameter(StringSemantics.ENUM_ALLOWED, String.join(",", t.enumLabels()));
        }
        PgType builtin = t.builtin();
        return builtin == null ? extension(t.name()) : builtin(builtin, t.typmod(), mappings);
    }

    private static SchemaBuilder builtin(PgType type, int typmod, ValueMappings mappings) {
        return switch (type) {
            case BOOL -> SchemaBuilder.bool();
            case INT2 -> SchemaBuilder.int16();
            case INT4 -> SchemaBuilder.int32();
            case INT8, OID, XID, CID, XID8 -> SchemaBuilder.int64();
            case FLOAT4 -> SchemaBuilder.float32();
            case FLOAT8 -> SchemaBuilder.float64();
            case NUMERIC -> numeric(typmod, mappings.numeric());
            case MONEY -> money(mappings.numeric());
            case BYTEA -> SchemaBuilder.bytes();
            case UUID -> StringSemantics.builder(StringSemantics.UUID);
            case JSON, JSONB -> StringSemantics.builder(StringSemantics.JSON);
            case XML -> StringSemantics.builder(StringSemantics.XML);
            case TSVECTOR -> StringSemantics.builder(StringSemantics.TSVECTOR);
            case DATE -> EpochDate.builder();
            case TIME -> MicroTime.builder();
            case TIMETZ -> ZonedTime.builder();
            case TIMESTAMP -> MicroTimestamp.builder();
            case TIMESTAMPTZ -> ZonedTimestamp.builder();
            case INTERVAL ->
                mappings.interval() == IntervalMapping.NUMERIC ? MicroDuration.builder() : PgInterval.builder();
            case BIT -> bit(typmod);
            case VARBIT -> StringSemantics.builder(StringSemantics.BIT_STRING);
            case POINT -> GeoPoint.builder();
            default -> SchemaBuilder.string();
        };
    }

    /** Types from extensions, known by name; anything else travels as PostgreSQL text. */
    private static SchemaBuilder extension(String typname) {
        return switch (typname.toLowerCase(Locale.ROOT)) {
            case "hstore" -> StringSemantics.builder(StringSemantics.JSON);
            case "ltree" -> StringSemantics.builder(StringSemantics.LTREE);
            default -> SchemaBuilder.string();
        };
    }

    private static SchemaBuilder numeric(int typmod, NumericMapping mode) {
        return switch (mode) {
            case STRING -> SchemaBuilder.string();
            case DOUBLE -> SchemaBuilder.float64();
            default ->
                TypeModifiers.numericPrecision(typmod) < 0
                        ? VariableScaleDecimal.builder()
                        : Decimal.builder(TypeModifiers.numericScale(typmod))
                                .parameter(DECIMAL_PRECISION, Integer.toString(TypeModifiers.numericPrecision(typmod)));
        };
    }

    /** {@code money} has two fraction digits under the usual {@code lc_monetary}, as Debezium assumes. */
    private static SchemaBuilder money(NumericMapping mode) {
        return switch (mode) {
            case STRING -> SchemaBuilder.string();
            case DOUBLE -> SchemaBuilder.float64();
            default -> Decimal.builder(2);
        };
    }

    /** {@code bit(1)} is a flag; longer fixed strings are Bits; unknown length keeps the text. */
    private static SchemaBuilder bit(int length) {
        if (length == 1) {
            return SchemaBuilder.bool();
        }
        return length > 1 ? Bits.builder(length) : StringSemantics.builder(StringSemantics.BIT_STRING);
    }
}
