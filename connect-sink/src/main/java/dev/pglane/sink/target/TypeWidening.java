package dev.pglane.sink.target;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a source column's new type only widens the target column's, so that {@code auto.evolve} may change the target
 * column to it without losing or changing a value it holds: a wider integer, {@code real} to {@code double precision},
 * a longer or unbounded {@code character varying} or {@code text}, {@code numeric} with more digits of the same scale
 * or unconstrained. Both types as the server formats them ({@code format_type}).
 */
final class TypeWidening {
    private static final List<String> INTEGERS = List.of("smallint", "integer", "bigint");
    private static final Pattern VARCHAR = Pattern.compile("character varying(?:\\((\\d+)\\))?");
    private static final Pattern NUMERIC = Pattern.compile("numeric(?:\\((\\d+),(\\d+)\\))?");

    private TypeWidening() {}

    /** True if a column of type {@code from} can become {@code to} keeping every value. */
    static boolean widens(String from, String to) {
        if (from.equals(to)) {
            return false;
        }
        int fromInteger = INTEGERS.indexOf(from);
        int toInteger = INTEGERS.indexOf(to);
        if (fromInteger >= 0 && toInteger >= 0) {
            return toInteger > fromInteger;
        }
        if (from.equals("real")) {
            return to.equals("double precision");
        }
        Matcher varcharFrom = VARCHAR.matcher(from);
        if (varcharFrom.matches()) {
            if (to.equals("text")) {
                return true;
            }
            Matcher varcharTo = VARCHAR.matcher(to);
            return varcharTo.matches() && varcharFrom.group(1) != null && longer(varcharFrom, varcharTo);
        }
        Matcher numericFrom = NUMERIC.matcher(from);
        Matcher numericTo = NUMERIC.matcher(to);
        if (numericFrom.matches() && numericTo.matches() && numericFrom.group(1) != null) {
            return numericTo.group(1) == null
                    || numericTo.group(2).equals(numericFrom.group(2)) && longer(numericFrom, numericTo);
        }
        return false;
    }

    /** The second's first modifier is absent (unbounded) or larger. */
    private static boolean longer(Matcher from, Matcher to) {
        return to.group(1) == null || Integer.parseInt(to.group(1)) > Integer.parseInt(from.group(1));
    }
}
