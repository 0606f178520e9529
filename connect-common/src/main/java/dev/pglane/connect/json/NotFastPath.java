package dev.pglane.connect.json;

/**
 * Input the fast path does not read the way JsonConverter would (a field order, a token or a type it
 * leaves to JsonConverter): the converter hands the whole record to JsonConverter instead.
 */
final class NotFastPath extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotFastPath(String what) {
        super(what, null, false, false);
    }
}
