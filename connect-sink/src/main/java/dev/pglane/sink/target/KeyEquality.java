package dev.pglane.sink.target;

import java.util.regex.Pattern;

/**
 * How the sink compares a key column with a bound value: {@code "id" OPERATOR(pg_catalog.=) ?}, naming the
 * equality operator of the column's unique index with its schema. Under the pinned search path a bare
 * {@code =} would only find pg_catalog's operators, which for an extension type (citext, say) means a
 * comparison through a cast that no index answers, or none at all.
 */
final class KeyEquality {
    /** For a column whose index did not say: the built-in types' operators live in pg_catalog. */
    static final String DEFAULT = "pg_catalog.=";

    /** A quoted or plain schema name, then an operator name as the server spells them. */
    private static final Pattern QUALIFIED_OPERATOR =
            Pattern.compile("(\"([^\"]|\"\")+\"|[a-z_][a-z0-9_$]*)\\.[-+*/<>=~!@#%^&|`?]{1,63}");

    private KeyEquality() {}

    /**
     * The operator as read from the catalog, refused unless it looks as the catalog spells operators: it is
     * pasted into statement text, so even the server's answer is checked.
     */
    static String checked(String qualified) {
        if (!QUALIFIED_OPERATOR.matcher(qualified).matches()) {
            throw new IllegalStateException("unexpected operator name from the catalog: " + qualified);
        }
        return qualified;
    }

    /** {@code OPERATOR(schema.op)}, for SQL text. */
    static String sql(String qualified) {
        return "OPERATOR(" + qualified + ")";
    }
}
