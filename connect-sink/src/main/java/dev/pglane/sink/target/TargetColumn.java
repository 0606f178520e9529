package dev.pglane.sink.target;

/**
 * A column of a target table.
 *
 * @param name the column name, unquoted
 * @param type its {@code format_type} text, e.g. {@code numeric(10,2)}
 * @param generated true for a generated column, which is never written
 */
public record TargetColumn(String name, String type, boolean generated) {}
