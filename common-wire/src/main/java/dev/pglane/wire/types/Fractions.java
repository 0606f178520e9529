package dev.pglane.wire.types;

/** Renders sub-second microseconds the way PostgreSQL prints them: no trailing zeros, no dot for 0. */
final class Fractions {

    private Fractions() {}

    /** {@code ".5"} for 500000, {@code ".000001"} for 1, {@code ""} for 0; {@code micros} in 0..999999. */
    static String micros(long micros) {
        if (micros == 0) {
            return "";
        }
        String digits = String.format(java.util.Locale.ROOT, "%06d", micros);
        int end = digits.length();
        while (digits.charAt(end - 1) == '0') {
            end--;
        }
        return "." + digits.substring(0, end);
    }
}
