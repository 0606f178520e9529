package dev.pglane.sink.target;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the sink knows of a table in the target database, read from its catalog.
 *
 * @param name the table
 * @param columns its columns in table order (dropped columns excluded)
 * @param primaryKey the primary key columns, empty if it has none
 * @param uniqueKeys the columns of each other unique index without expressions or predicates
 * @param foreignKeys the foreign keys it declares
 * @param keyEquality per key column, the schema-qualified equality operator of its unique index (the primary
 *     key's where a column is in several); a column missing here compares with pg_catalog's {@code =}
 * @param partitioned a partitioned table: its rows live in its partitions, so a {@code ctid} names a row only with
 *     its {@code tableoid}, and PostgreSQL cannot return system columns such as {@code xmax} of rows it routes
 */
public record TargetTable(
        TableName name,
        List<TargetColumn> columns,
        List<String> primaryKey,
        List<List<String>> uniqueKeys,
        List<ForeignKey> foreignKeys,
        Map<String, String> keyEquality,
        boolean partitioned) {

    public TargetTable {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        uniqueKeys = uniqueKeys.stream().map(List::copyOf).toList();
        foreignKeys = List.copyOf(foreignKeys);
        keyEquality = Map.copyOf(keyEquality);
    }

    /** A table, not partitioned, whose keys are all of built-in types. */
    public TargetTable(
            TableName name,
            List<TargetColumn> columns,
            List<String> primaryKey,
            List<List<String>> uniqueKeys,
            List<ForeignKey> foreignKeys) {
        this(name, columns, primaryKey, uniqueKeys, foreignKeys, Map.of(), false);
    }

    /** {@code OPERATOR(schema.=)}: how a statement compares key column {@code column} with a value. */
    public String equalityOperator(String column) {
        return KeyEquality.sql(keyEquality.getOrDefault(column, KeyEquality.DEFAULT));
    }

    public Optional<TargetColumn> column(String columnName) {
        return columns.stream().filter(c -> c.name().equals(columnName)).findFirst();
    }

    /** The key rows are identified by: the primary key, else the first unique key, else empty. */
    public List<String> identityKey() {
        if (!primaryKey.isEmpty()) {
            return primaryKey;
        }
        return uniqueKeys.isEmpty() ? List.of() : uniqueKeys.get(0);
    }
}
