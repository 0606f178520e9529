package dev.pglane.sink.target;

import dev.pglane.sink.TableName;
import java.util.List;
import java.util.Optional;

/**
 * What the sink knows of a table in the target database, read from its catalog.
 *
 * @param name the table
 * @param columns its columns in table order (dropped columns excluded)
 * @param primaryKey the primary key columns, empty if it has none
 * @param uniqueKeys the columns of each other unique index without expressions or predicates
 * @param foreignKeys the foreign keys it declares
 */
public record TargetTable(
        TableName name,
        List<TargetColumn> columns,
        List<String> primaryKey,
        List<List<String>> uniqueKeys,
        List<ForeignKey> foreignKeys) {

    public TargetTable {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        uniqueKeys = uniqueKeys.stream().map(List::copyOf).toList();
        foreignKeys = List.copyOf(foreignKeys);
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
