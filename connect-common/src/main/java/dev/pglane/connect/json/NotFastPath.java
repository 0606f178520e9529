package dev.pglane.connect.json;

/**
 * Input the fast path does not read the way JsonConverter would (a field order, a token or a type it
 * leaves to JsonConverter): the converter hands the whole record to JsonConverter instead.
 */
final class NotFastPath extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean wrongType;

    NotFastPath(String what) {
        this(what, false);
    }

    private NotFastPath(String what, boolean wrongType) {
        super(what, null, false, false);
        this.wrongType = wrongType;
    }

    /**
     * A token of a JSON type that the field's schema type cannot hold (an array for an int64, a string for a
     * boolean), of which JsonConverter makes 0, false or null instead of an error.
     */
    static NotFastPath wrongType(String what) {
        return new NotFastPath(what, true);
    }

    boolean wrongType() {
        return wrongType;
    }
}
