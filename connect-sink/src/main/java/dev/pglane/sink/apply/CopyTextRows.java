package dev.pglane.sink.apply;

/**
 * Rows in COPY's text format: values separated by a tab, rows ended by a newline, SQL NULL as {@code \N}, and a
 * backslash, tab, newline or carriage return inside a value escaped, as {@code COPY ... FROM STDIN} reads them. The
 * values are PostgreSQL text already (as the sink binds them elsewhere), so the server parses each into its column's
 * type exactly as it parses a bound parameter.
 */
final class CopyTextRows {
    private final StringBuilder text;
    private boolean rowStarted;

    CopyTextRows(int capacity) {
        this.text = new StringBuilder(capacity);
    }

    /** Appends the next value of the current row; {@code null} is SQL NULL. */
    void value(String value) {
        if (rowStarted) {
            text.append('\t');
        }
        rowStarted = true;
        if (value == null) {
            text.append("\\N");
            return;
        }
        int plain = plainPrefix(value);
        if (plain == value.length()) {
            // most values need no escape: copied whole, not a character at a time (the apply workers' top frame)
            text.append(value);
            return;
        }
        text.append(value, 0, plain);
        for (int i = plain; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> text.append("\\\\");
                case '\t' -> text.append("\\t");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                default -> text.append(c);
            }
        }
    }

    /** The length of the start of {@code value} that holds no character COPY needs escaped. */
    private static int plainPrefix(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
                return i;
            }
        }
        return value.length();
    }

    /** Ends the current row. */
    void endRow() {
        text.append('\n');
        rowStarted = false;
    }

    /** Characters held: the caller sends them once they pass its buffer size. */
    int length() {
        return text.length();
    }

    /** The complete rows held, and forgets them. */
    String take() {
        String rows = text.toString();
        text.setLength(0);
        return rows;
    }
}
