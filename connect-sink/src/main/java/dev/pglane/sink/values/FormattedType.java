package dev.pglane.sink.values;

import java.util.Locale;

/**
 * A column's {@code __pglane.type} parameter ({@code format_type} text, e.g. {@code bit(1)}, {@code numeric(10,2)},
 * {@code public.hstore}, {@code box[]}), asked the few questions the Connect schema alone cannot answer: the same
 * Connect type stands for several PostgreSQL types whose text input differs. Every question answers {@code false}
 * when the parameter is missing, so a field without it is written by its Connect type alone.
 *
 * @param text the {@code format_type} text, or {@code null} if the field has none
 */
record FormattedType(String text) {

    /** The type of an array's elements: the text without its {@code []}. */
    FormattedType element() {
        return text != null && text.endsWith("[]") ? new FormattedType(text.substring(0, text.length() - 2)) : this;
    }

    /** {@code bit(1)}, which travels as a BOOLEAN but reads {@code 0}/{@code 1}, not {@code t}/{@code f}. */
    boolean isBit() {
        return text != null && (text.equals("bit") || text.startsWith("bit("));
    }

    /**
     * {@code numeric} or {@code money}, whose double-mode values must be written without an exponent
     * ({@code money} does not read {@code 1.0E10}).
     */
    boolean isNumeric() {
        return text != null && (text.startsWith("numeric") || text.equals("money"));
    }

    /** {@code hstore}, which travels as a JSON object; {@code format_type} qualifies it when it is off the path. */
    boolean isHstore() {
        if (text == null) {
            return false;
        }
        String unqualified = text.substring(text.lastIndexOf('.') + 1).replace("\"", "");
        return unqualified.toLowerCase(Locale.ROOT).equals("hstore");
    }

    /** {@code pg_type.typdelim} of this type as an array element: {@code ;} for {@code box}, {@code ,} for the rest. */
    char arrayDelimiter() {
        return "box".equals(text) ? ';' : ',';
    }
}
