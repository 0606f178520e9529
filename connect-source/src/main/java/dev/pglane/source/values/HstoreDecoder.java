package dev.pglane.source.values;

/**
 * {@code hstore} as {@code io.debezium.data.Json}: the pairs as one JSON object, values strings or null, in the
 * order hstore prints them. hstore's output quotes every key and value and escapes {@code "} and {@code \} with a
 * backslash: {@code "a"=>"1", "b"=>NULL}.
 */
final class HstoreDecoder implements TextDecoder {

    static final HstoreDecoder INSTANCE = new HstoreDecoder();

    private HstoreDecoder() {}

    @Override
    public Object decode(String text) {
        StringBuilder json = new StringBuilder(text.length() + 2).append('{');
        int pos = skipSpaces(text, 0);
        while (pos < text.length()) {
            if (json.length() > 1) {
                pos = skipSpaces(text, expect(text, pos, ','));
                json.append(',');
            }
            StringBuilder key = new StringBuilder();
            pos = quoted(text, pos, key);
            pos = skipSpaces(text, pos);
            pos = skipSpaces(text, expect(text, expect(text, pos, '='), '>'));
            appendJsonString(json, key);
            json.append(':');
            if (text.startsWith("NULL", pos)) {
                json.append("null");
                pos += 4;
            } else {
                StringBuilder value = new StringBuilder();
                pos = quoted(text, pos, value);
                appendJsonString(json, value);
            }
            pos = skipSpaces(text, pos);
        }
        return json.append('}').toString();
    }

    /** Reads a {@code "…"} token starting at {@code pos} into {@code out}; returns the position after it. */
    private static int quoted(String text, int pos, StringBuilder out) {
        int i = expect(text, pos, '"');
        while (i < text.length()) {
            char c = text.charAt(i++);
            if (c == '"') {
                return i;
            }
            if (c == '\\') {
                if (i == text.length()) {
                    break;
                }
                c = text.charAt(i++);
            }
            out.append(c);
        }
        throw new IllegalArgumentException("unterminated quoted string at position " + pos);
    }

    private static int expect(String text, int pos, char c) {
        if (pos >= text.length() || text.charAt(pos) != c) {
            throw new IllegalArgumentException("expected '" + c + "' at position " + pos);
        }
        return pos + 1;
    }

    private static int skipSpaces(String text, int pos) {
        int i = pos;
        while (i < text.length() && text.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    /** A JSON string literal (RFC 8259): quote, backslash and control characters escaped. */
    private static void appendJsonString(StringBuilder json, CharSequence s) {
        json.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
