package dev.pglane.local.verify;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A source table to compare, and the SQL that reads it the same way on both sides.
 *
 * <p>Rows are rendered as {@code ROW(<source columns in source order>)::text}, so a target whose columns sit in
 * another order still compares equal, and a target missing a column fails loudly. Rows are ordered by the key's
 * text under {@code COLLATE "C"}, the order {@link KeyedRowMerge} merges in.
 *
 * @param keyColumns the primary key columns in key order; empty when the table has none, and then the whole row
 *     is the key
 */
record SourceTable(String schema, String name, List<String> columns, List<String> keyColumns) {

    /** {@code schema.table} for people. */
    String displayName() {
        return schema + "." + name;
    }

    /** {@code "schema"."table"} for SQL. */
    String qualifiedName() {
        return quote(schema) + "." + quote(name);
    }

    /** Row count and an ordered checksum of all rows: one result row, two columns. */
    String checksumQuery() {
        return "SELECT count(*), md5(coalesce(string_agg(md5(" + rowText() + "), '' ORDER BY " + ordering()
                + "), '')) FROM " + qualifiedName() + " t";
    }

    /** The key texts, then the row text, in key order. */
    String rowsQuery() {
        return "SELECT " + String.join(", ", keyTexts()) + ", " + rowText() + " FROM " + qualifiedName()
                + " t ORDER BY " + ordering();
    }

    /** How many leading columns of {@link #rowsQuery()} make the key. */
    int keyWidth() {
        return keyTexts().size();
    }

    private List<String> keyTexts() {
        if (keyColumns.isEmpty()) {
            return List.of(rowText());
        }
        return keyColumns.stream().map(c -> "(t." + quote(c) + ")::text").collect(Collectors.toList());
    }

    private String ordering() {
        return keyTexts().stream().map(k -> k + " COLLATE \"C\"").collect(Collectors.joining(", "));
    }

    private String rowText() {
        return "ROW(" + columns.stream().map(c -> "t." + quote(c)).collect(Collectors.joining(", ")) + ")::text";
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
