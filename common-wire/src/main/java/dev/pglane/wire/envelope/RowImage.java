package dev.pglane.wire.envelope;

/**
 * Which row of the envelope a column belongs to; also forms the {@code text_values} keys
 * ({@code before.<column>}, {@code after.<column>}).
 */
public enum RowImage {
    BEFORE("before"),
    AFTER("after");

    private final String field;

    RowImage(String field) {
        this.field = field;
    }

    /** The envelope field holding this row. */
    public String field() {
        return field;
    }

    /** The {@code text_values} key of {@code column} in this row. */
    public String textValueKey(String column) {
        return field + "." + column;
    }
}
