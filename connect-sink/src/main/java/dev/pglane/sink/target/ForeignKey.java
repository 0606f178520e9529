package dev.pglane.sink.target;

import java.util.List;

/**
 * A foreign key of a target table: {@code columns} reference {@code referencedColumns} of
 * {@code referenced}. The scheduler uses it so a child row's transaction waits for its parent's.
 */
public record ForeignKey(List<String> columns, TableName referenced, List<String> referencedColumns) {
    public ForeignKey {
        columns = List.copyOf(columns);
        referencedColumns = List.copyOf(referencedColumns);
    }
}
