package dev.pglane.source.values;

import org.apache.kafka.connect.errors.DataException;

/**
 * A column value PostgreSQL sent that pglane cannot turn into its field value: the message names the relation,
 * the column, its type and the text (cut to {@value #MAX_TEXT} characters, since values can be large). The
 * pipeline adds the LSN.
 */
public final class ValueDecodingException extends DataException {

    static final int MAX_TEXT = 100;

    private final String column;

    ValueDecodingException(String relation, String column, String type, String text, String problem, Throwable cause) {
        super(
                "cannot decode column \"" + column + "\" of " + relation + " (type " + type + ") from "
                        + (text == null ? "its value" : "the text " + quoted(text)) + ": " + cut(problem),
                cause);
        this.column = column;
    }

    /** The column whose value failed. */
    public String column() {
        return column;
    }

    /** A cause's message may repeat the whole text; keep the message bounded all the same. */
    private static String cut(String problem) {
        return problem.length() <= 2 * MAX_TEXT ? problem : problem.substring(0, 2 * MAX_TEXT) + "…";
    }

    /** {@code 'text'}, or its start and its length when it is longer than {@value #MAX_TEXT} characters. */
    static String quoted(String text) {
        return text.length() <= MAX_TEXT
                ? "'" + text + "'"
                : "'" + text.substring(0, MAX_TEXT) + "…' (" + text.length() + " characters)";
    }
}
