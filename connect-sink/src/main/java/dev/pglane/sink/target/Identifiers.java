package dev.pglane.sink.target;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Quotes names for the SQL the sink generates. Every identifier is quoted, so source names with
 * capitals, spaces or reserved words reach the target unchanged.
 */
public final class Identifiers {
    private Identifiers() {}

    /** {@code name} as a quoted identifier: {@code "Order ""x"""}. */
    public static String quote(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** {@code "schema"."table"}. */
    public static String qualified(TableName table) {
        return quote(table.schema()) + "." + quote(table.table());
    }

    /** {@code "a", "b"}: a quoted column list without parentheses. */
    public static String columnList(List<String> columns) {
        return columns.stream().map(Identifiers::quote).collect(Collectors.joining(", "));
    }
}
