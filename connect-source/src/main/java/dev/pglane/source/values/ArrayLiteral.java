package dev.pglane.source.values;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads PostgreSQL's array output ({@code array_out}): {@code {1,NULL,"a \"b\"",{x}}}, optionally preceded by
 * dimension bounds ({@code [0:1]={7,8}}) when a lower bound is not 1. Elements are separated by the element type's
 * delimiter ({@code ,}, or {@code ;} for {@code box}); an element is quoted when it holds the delimiter, braces,
 * quotes, backslashes or spaces, or would read as {@code NULL}, and inside quotes {@code \} escapes the next
 * character. An unquoted {@code NULL} is SQL NULL.
 */
final class ArrayLiteral {

    private final String text;
    private final char delimiter;
    private int pos;

    private ArrayLiteral(String text, char delimiter) {
        this.text = text;
        this.delimiter = delimiter;
    }

    /**
     * The element texts of a one-dimensional array whose lower bound is 1 ({@code null} for SQL NULL elements),
     * or {@code null} for an array of more dimensions or other bounds, which a Connect array cannot hold.
     *
     * @throws IllegalArgumentException if the text is not an array literal
     */
    static List<String> oneDimensional(String text, char delimiter) {
        ArrayLiteral in = new ArrayLiteral(text, delimiter);
        if (!in.boundsAreDefault()) {
            return null;
        }
        in.expect('{');
        in.skipSpaces();
        if (in.peek() == '{') {
            return null;
        }
        List<String> elements = in.elements();
        in.skipSpaces();
        if (in.pos != text.length()) {
            throw new IllegalArgumentException("unexpected text after the array at position " + in.pos);
        }
        return elements;
    }

    /** Consumes a {@code [lb:ub]…=} decoration; true if there is none or it is one dimension starting at 1. */
    private boolean boundsAreDefault() {
        int dimensions = 0;
        boolean lowerBoundsOne = true;
        while (peek() == '[') {
            pos++;
            int colon = text.indexOf(':', pos);
            int close = text.indexOf(']', pos);
            if (colon < 0 || close < colon) {
                throw new IllegalArgumentException("malformed array bounds at position " + pos);
            }
            lowerBoundsOne &= Integer.parseInt(text.substring(pos, colon).trim()) == 1;
            pos = close + 1;
            dimensions++;
        }
        if (dimensions > 0) {
            expect('=');
        }
        return dimensions <= 1 && lowerBoundsOne;
    }

    /** After the opening brace: the elements up to and including the closing brace. */
    private List<String> elements() {
        List<String> elements = new ArrayList<>();
        if (peek() == '}') {
            pos++;
            return elements;
        }
        while (true) {
            skipSpaces();
            elements.add(peek() == '"' ? quoted() : unquoted());
            skipSpaces();
            char next = peek();
            pos++;
            if (next == '}') {
                return elements;
            }
            if (next != delimiter) {
                throw new IllegalArgumentException(
                        "expected '" + delimiter + "' or '}' at position " + (pos - 1) + " of the array");
            }
        }
    }

    private String quoted() {
        int start = pos++;
        StringBuilder out = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c == '\\' && pos < text.length()) {
                c = text.charAt(pos++);
            }
            out.append(c);
        }
        throw new IllegalArgumentException("unterminated quoted array element at position " + start);
    }

    /** An unquoted element: up to the delimiter or closing brace, trailing spaces dropped. */
    private String unquoted() {
        StringBuilder out = new StringBuilder();
        int lastNonSpace = 0;
        boolean escaped = false;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == delimiter || c == '}') {
                break;
            }
            if (c == '{' || c == '"') {
                throw new IllegalArgumentException("unexpected '" + c + "' in array element at position " + pos);
            }
            if (c == '\\' && pos + 1 < text.length()) {
                c = text.charAt(++pos);
                lastNonSpace = out.length() + 1;
                escaped = true;
            } else if (c != ' ') {
                lastNonSpace = out.length() + 1;
            }
            out.append(c);
            pos++;
        }
        out.setLength(lastNonSpace);
        if (out.isEmpty()) {
            throw new IllegalArgumentException("empty unquoted array element at position " + pos);
        }
        String element = out.toString();
        return !escaped && element.equalsIgnoreCase("NULL") ? null : element;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipSpaces() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private void expect(char c) {
        if (peek() != c) {
            throw new IllegalArgumentException("expected '" + c + "' at position " + pos + " of the array");
        }
        pos++;
    }
}
