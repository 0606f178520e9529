package dev.pglane.sink.values;

/**
 * {@code hstore} from its wire form, a flat JSON object whose values are strings or {@code null}
 * ({@code {"a":"1","b":null}}), to hstore's input text {@code "a"=>"1", "b"=>NULL}: every key and value quoted,
 * {@code "} and {@code \} escaped with a backslash, so no content is read as syntax.
 *
 * <p>A JSON reader of its own, because the sink carries no JSON library and the wire allows only this one shape;
 * anything else (nested values, numbers, booleans) is rejected with its position.
 */
final class HstoreText {

    private final String json;
    private final StringBuilder out;
    private int pos;

    private HstoreText(String json) {
        this.json = json;
        this.out = new StringBuilder(json.length() + 8);
    }

    /**
     * @throws IllegalArgumentException naming the position if {@code json} is not a flat object of strings and nulls
     */
    static String fromJson(String json) {
        HstoreText in = new HstoreText(json);
        in.object();
        return in.out.toString();
    }

    private void object() {
        expect('{');
        if (!consume('}')) {
            do {
                if (out.length() > 0) {
                    out.append(", ");
                }
                QuotedText.append(out, string());
                expect(':');
                out.append("=>");
                skipSpaces();
                if (json.startsWith("null", pos)) {
                    pos += 4;
                    out.append("NULL");
                } else {
                    QuotedText.append(out, string());
                }
            } while (consume(','));
            expect('}');
        }
        skipSpaces();
        if (pos != json.length()) {
            throw error("text after the object");
        }
    }

    /** A JSON string literal at the next non-space position, unescaped. */
    private String string() {
        expect('"');
        StringBuilder s = new StringBuilder();
        while (pos < json.length()) {
            char c = json.charAt(pos++);
            if (c == '"') {
                return s.toString();
            }
            s.append(c == '\\' ? escaped() : c);
        }
        throw error("unterminated string");
    }

    /** The character an escape after a backslash stands for; a surrogate pair arrives as two {@code \\u} escapes. */
    private char escaped() {
        if (pos >= json.length()) {
            throw error("unterminated escape");
        }
        char c = json.charAt(pos++);
        return switch (c) {
            case '"', '\\', '/' -> c;
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> unicodeEscape();
            default -> throw error("unknown escape \\" + c);
        };
    }

    private char unicodeEscape() {
        if (pos + 4 > json.length()) {
            throw error("short \\u escape");
        }
        try {
            char c = (char) Integer.parseInt(json.substring(pos, pos + 4), 16);
            pos += 4;
            return c;
        } catch (NumberFormatException e) {
            throw error("bad \\u escape");
        }
    }

    private void expect(char c) {
        if (!consume(c)) {
            throw error("expected '" + c + "'");
        }
    }

    /** Skips spaces, then consumes {@code c} if it is next. */
    private boolean consume(char c) {
        skipSpaces();
        if (pos < json.length() && json.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void skipSpaces() {
        while (pos < json.length() && " \t\n\r".indexOf(json.charAt(pos)) >= 0) {
            pos++;
        }
    }

    private IllegalArgumentException error(String problem) {
        return new IllegalArgumentException("not an hstore JSON object: " + problem + " at position " + pos);
    }
}
