package dev.pglane.sink.target;

/**
 * The shape a column type text from a record ({@code __pglane.type}) must have before the target server is
 * even asked about it: what {@code format_type} prints, and nothing else. That is words and quoted
 * identifiers, dots between names, integer modifiers in parentheses and array brackets, separated by single
 * spaces: {@code character varying(10)}, {@code timestamp(3) with time zone}, {@code public."My Type"[]}.
 * No quote, semicolon, comment, operator or literal can pass, so a text that passes cannot leave a type
 * position. The server still decides what the text means ({@link TargetTypes}); the DDL uses the server's
 * own formatting of the type it resolved, never the record's text.
 */
public final class TypeText {
    /** Longer than any type name PostgreSQL formats (two 63-byte quoted identifiers, modifiers, brackets). */
    static final int MAX_LENGTH = 300;

    private TypeText() {}

    /**
     * Why {@code text} is not a type name as {@code format_type} prints one, or {@code null} if it is.
     *
     * @param text the record's type text, may be {@code null}
     */
    public static String problem(String text) {
        if (text == null || text.isEmpty()) {
            return "it is empty";
        }
        if (text.length() > MAX_LENGTH) {
            return "it has " + text.length() + " characters, more than any type name";
        }
        return new Scan(text).run();
    }

    /** One pass over the text with what may come next. */
    private static final class Scan {
        private final String text;
        private int at;
        /** Inside {@code ( )}: only integers and commas. */
        private boolean inModifiers;
        /** After the first {@code [}: only further brackets and integers inside them. */
        private boolean inArray;
        /** At the start and after a dot: a name must come. */
        private boolean nameExpected = true;

        Scan(String text) {
            this.text = text;
        }

        String run() {
            while (at < text.length()) {
                String problem = next(text.charAt(at));
                if (problem != null) {
                    return problem;
                }
            }
            if (inModifiers) {
                return "a modifier list is not closed";
            }
            return nameExpected ? "it does not end with a name, a modifier list or brackets" : null;
        }

        /** Reads what starts at {@code c}; the problem with it, or null. */
        private String next(char c) {
            if (inModifiers) {
                return modifierPart(c);
            }
            if (inArray) {
                return arrayPart(c);
            }
            if (c == '"') {
                nameExpected = false;
                return quotedIdentifier();
            }
            if (isWordStart(c)) {
                nameExpected = false;
                word();
                return null;
            }
            if (c == '.' && !nameExpected && at + 1 < text.length()) {
                at++;
                nameExpected = true;
                return null;
            }
            return outsideNames(c);
        }

        private String outsideNames(char c) {
            if (nameExpected) {
                return unexpected(c);
            }
            if (c == ' ' && at + 1 < text.length() && text.charAt(at + 1) != ' ') {
                at++;
                return null;
            }
            if (c == '(') {
                at++;
                inModifiers = true;
                return digitsAt() ? null : unexpected(at < text.length() ? text.charAt(at) : ')');
            }
            if (c == '[') {
                inArray = true;
                return null;
            }
            return unexpected(c);
        }

        private String modifierPart(char c) {
            if (Character.isDigit(c)) {
                at++;
                return null;
            }
            if (c == ',') {
                at++;
                return digitsAt() ? null : unexpected(c);
            }
            if (c == ')') {
                at++;
                inModifiers = false;
                return null;
            }
            return unexpected(c);
        }

        private String arrayPart(char c) {
            if (c != '[') {
                return unexpected(c);
            }
            at++;
            while (at < text.length() && Character.isDigit(text.charAt(at))) {
                at++;
            }
            if (at >= text.length() || text.charAt(at) != ']') {
                return "an array bracket is not closed";
            }
            at++;
            return null;
        }

        private String quotedIdentifier() {
            at++;
            while (at < text.length()) {
                char c = text.charAt(at);
                if (c == '"' && at + 1 < text.length() && text.charAt(at + 1) == '"') {
                    at += 2;
                } else if (c == '"') {
                    at++;
                    return null;
                } else if (Character.isISOControl(c)) {
                    return unexpected(c);
                } else {
                    at++;
                }
            }
            return "a quoted name is not closed";
        }

        private void word() {
            while (at < text.length() && isWordPart(text.charAt(at))) {
                at++;
            }
        }

        private boolean digitsAt() {
            return at < text.length() && Character.isDigit(text.charAt(at));
        }

        private String unexpected(char c) {
            return "'" + printable(c) + "' at position " + (at + 1) + " is not part of a type name";
        }
    }

    private static boolean isWordStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80 && Character.isLetter(c);
    }

    private static boolean isWordPart(char c) {
        return isWordStart(c) || (c >= '0' && c <= '9') || c == '$';
    }

    private static String printable(char c) {
        return Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }
}
