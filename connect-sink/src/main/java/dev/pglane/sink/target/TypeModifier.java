package dev.pglane.sink.target;

import java.util.Locale;
import java.util.Set;

/**
 * The check of a record's {@code __pglane.typmod} before it is used ({@link TargetTypes} formats the type with it, and
 * {@code auto.create}/{@code auto.evolve} put that in DDL): a decimal int4, -1 or more, and for the built-in types
 * whose modifier PostgreSQL checks on input, one their input would accept. A modifier PostgreSQL refuses would fail
 * the DDL, and with it the apply of the whole transaction on every restart; checked when the record is decoded, it is
 * that record's problem instead (the dead-letter queue, or a stop naming it). Modifiers of other types (an extension's)
 * are only held to the first rule: the target decides.
 */
public final class TypeModifier {
    /** {@code VARHDRSZ}, which length and numeric modifiers include. */
    private static final int HEADER = 4;
    /** Longest {@code varchar(n)}/{@code char(n)}: {@code MaxAttrSize}. */
    private static final int MAX_CHARS = 10_485_760;
    /** Longest {@code bit(n)}/{@code varbit(n)}. */
    private static final int MAX_BITS = MAX_CHARS * 8;

    private static final int MAX_NUMERIC_PRECISION = 1000;
    /** PostgreSQL 15 and later allow a scale from -1000 to 1000, kept in 11 bits. */
    private static final int MAX_NUMERIC_SCALE = 1000;

    private static final int MAX_TIME_PRECISION = 6;
    /** {@code INTERVAL_FULL_PRECISION}: no precision given. */
    private static final int INTERVAL_FULL_PRECISION = 0xFFFF;
    /** The field masks {@code interval} accepts: YEAR, MONTH, ..., DAY TO SECOND, and the full range. */
    private static final Set<Integer> INTERVAL_RANGES =
            Set.of(4, 2, 8, 1024, 2048, 4096, 6, 1032, 3080, 7176, 3072, 7168, 6144, 0x7FFF);

    private TypeModifier() {}

    /**
     * Why {@code typmod} is not a modifier of type {@code typeText}, or {@code null} if it may be.
     *
     * @param typeText the record's {@code __pglane.type}, may be {@code null}
     * @param typmod the record's {@code __pglane.typmod}, {@code null} if it has none
     */
    public static String problem(String typeText, String typmod) {
        if (typmod == null) {
            return null;
        }
        int value;
        try {
            value = Integer.parseInt(typmod);
        } catch (NumberFormatException e) {
            return "it is not a decimal int4";
        }
        if (value < -1) {
            return "it is below -1";
        }
        return value == -1 || typeText == null ? null : problemOf(baseName(typeText), value);
    }

    private static String problemOf(String base, int value) {
        switch (base) {
            case "character varying", "character", "bpchar", "varchar" -> {
                return within(value - HEADER, 1, MAX_CHARS, "length");
            }
            case "bit", "bit varying", "varbit" -> {
                return within(value, 1, MAX_BITS, "length");
            }
            case "numeric", "decimal" -> {
                int precision = ((value - HEADER) >> 16) & 0xFFFF;
                int scale = (((value - HEADER) & 0x7FF) ^ 0x400) - 0x400; // 11 bits, sign-extended
                String problem = within(precision, 1, MAX_NUMERIC_PRECISION, "precision");
                return problem != null ? problem : within(scale, -MAX_NUMERIC_SCALE, MAX_NUMERIC_SCALE, "scale");
            }
            case "time without time zone",
                    "time with time zone",
                    "timestamp without time zone",
                    "timestamp with time zone" -> {
                return within(value, 0, MAX_TIME_PRECISION, "precision");
            }
            default -> {
                return base.equals("interval") || base.startsWith("interval ") ? intervalProblem(value) : null;
            }
        }
    }

    private static String intervalProblem(int value) {
        int precision = value & 0xFFFF;
        if (precision != INTERVAL_FULL_PRECISION && precision > MAX_TIME_PRECISION) {
            return "its precision " + precision + " is outside 0 to " + MAX_TIME_PRECISION;
        }
        int range = (value >> 16) & 0x7FFF;
        return INTERVAL_RANGES.contains(range) ? null : "its field mask " + range + " is none interval accepts";
    }

    private static String within(int value, int min, int max, String what) {
        return value < min || value > max ? "its " + what + " " + value + " is outside " + min + " to " + max : null;
    }

    /** The type text without modifiers and array brackets, lower case: {@code timestamp with time zone}. */
    static String baseName(String typeText) {
        String bare = typeText.toLowerCase(Locale.ROOT)
                .replaceAll("\\([^)]*\\)", "")
                .replace("[]", "")
                .replaceAll("\\[[0-9]*]", "");
        return bare.trim().replaceAll(" +", " ");
    }
}
