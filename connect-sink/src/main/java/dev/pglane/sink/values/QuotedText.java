package dev.pglane.sink.values;

/**
 * The double-quoted token that both {@code array_in} and {@code hstore_in} read back verbatim: the text between
 * {@code "…"}, with {@code "} and {@code \} preceded by a backslash. Inside quotes nothing else is syntax.
 */
final class QuotedText {

    private QuotedText() {}

    static void append(StringBuilder out, CharSequence text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        out.append('"');
    }
}
