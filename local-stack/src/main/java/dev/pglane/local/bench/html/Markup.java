package dev.pglane.local.bench.html;

import java.util.Locale;

/** What goes into HTML and SVG markup: text with every character that could open a tag or end an attribute escaped. */
final class Markup {
    private Markup() {}

    /** {@code text} safe as element content and as a double- or single-quoted attribute value. */
    static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }

    /** A coordinate or length in pixels, to a tenth (finer is invisible and only makes the file larger). */
    static String px(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
