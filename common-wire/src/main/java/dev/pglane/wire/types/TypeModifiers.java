package dev.pglane.wire.types;

/**
 * Decodes PostgreSQL type modifiers ({@code atttypmod}, sent in pgoutput Relation messages) and
 * renders them the way {@code format_type(oid, typmod)} does, so the source can describe built-in
 * column types without a catalog query and the sink can create matching columns.
 */
public final class TypeModifiers {

    /** No modifier: {@code numeric}, {@code varchar}, ... without parentheses. */
    public static final int NONE = -1;

    private static final int VARHDRSZ = 4;
    private static final int INTERVAL_FULL_RANGE = 0x7FFF;
    private static final int INTERVAL_FULL_PRECISION = 0xFFFF;

    private TypeModifiers() {}

    /** The declared precision of {@code numeric(p,s)}, or -1 if unconstrained. */
    public static int numericPrecision(int typmod) {
        return typmod < VARHDRSZ ? -1 : ((typmod - VARHDRSZ) >> 16) & 0xFFFF;
    }

    /** The declared scale of {@code numeric(p,s)} (negative allowed since PostgreSQL 15), or 0. */
    public static int numericScale(int typmod) {
        return typmod < VARHDRSZ ? 0 : (((typmod - VARHDRSZ) & 0x7FF) ^ 1024) - 1024;
    }

    /** The declared length of {@code varchar(n)} / {@code char(n)}, or -1. */
    public static int characterLength(int typmod) {
        return typmod < VARHDRSZ ? -1 : typmod - VARHDRSZ;
    }

    /**
     * {@code format_type} text of a built-in type, e.g. {@code numeric(10,2)},
     * {@code character varying(20)}, {@code timestamp(3) without time zone}.
     */
    public static String format(PgType type, int typmod) {
        if (typmod < 0) {
            return type == PgType.BPCHAR ? "bpchar" : type.displayName();
        }
        return switch (type) {
            case NUMERIC -> "numeric(" + numericPrecision(typmod) + "," + numericScale(typmod) + ")";
            case VARCHAR, BPCHAR -> type.displayName() + "(" + characterLength(typmod) + ")";
            case BIT, VARBIT -> type.displayName() + "(" + typmod + ")";
            case TIME, TIMESTAMP -> withPrecision(type, typmod, " without time zone");
            case TIMETZ, TIMESTAMPTZ -> withPrecision(type, typmod, " with time zone");
            case INTERVAL -> interval(typmod);
            default -> type.displayName();
        };
    }

    private static String withPrecision(PgType type, int precision, String zoneSuffix) {
        String base = type.displayName().substring(0, type.displayName().length() - zoneSuffix.length());
        return base + "(" + precision + ")" + zoneSuffix;
    }

    private static String interval(int typmod) {
        int range = (typmod >> 16) & INTERVAL_FULL_RANGE;
        int precision = typmod & INTERVAL_FULL_PRECISION;
        String fields = range == INTERVAL_FULL_RANGE ? "" : " " + IntervalFields.name(range);
        String digits = precision == INTERVAL_FULL_PRECISION ? "" : "(" + precision + ")";
        return "interval" + fields + digits;
    }

    /** The field restriction of an interval typmod, as in PostgreSQL's {@code intervaltypmodout}. */
    private static final class IntervalFields {
        private static final int MONTH = 1 << 1;
        private static final int YEAR = 1 << 2;
        private static final int DAY = 1 << 3;
        private static final int HOUR = 1 << 10;
        private static final int MINUTE = 1 << 11;
        private static final int SECOND = 1 << 12;

        static String name(int range) {
            return switch (range) {
                case YEAR -> "year";
                case MONTH -> "month";
                case DAY -> "day";
                case HOUR -> "hour";
                case MINUTE -> "minute";
                case SECOND -> "second";
                case YEAR | MONTH -> "year to month";
                case DAY | HOUR -> "day to hour";
                case DAY | HOUR | MINUTE -> "day to minute";
                case DAY | HOUR | MINUTE | SECOND -> "day to second";
                case HOUR | MINUTE -> "hour to minute";
                case HOUR | MINUTE | SECOND -> "hour to second";
                case MINUTE | SECOND -> "minute to second";
                default -> throw new IllegalArgumentException("invalid interval typmod range: " + range);
            };
        }
    }
}
