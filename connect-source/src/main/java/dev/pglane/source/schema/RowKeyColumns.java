package dev.pglane.source.schema;

import dev.pglane.source.RecordKey;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.wire.types.Column;
import java.sql.Connection;
import java.util.List;
import java.util.function.IntFunction;

/** The columns that key a table's change records when the source keys them by row ({@code record.key=row}). */
@FunctionalInterface
public interface RowKeyColumns {

    /** Changes are keyed by transaction: no table has key columns. */
    RowKeyColumns NONE = (message, columns) -> List.of();

    /** The key columns {@code key} asks for, read through {@code sql} where the catalog must tell. */
    static RowKeyColumns of(RecordKey key, Connection sql) {
        return key == RecordKey.ROW ? replicaIdentity(new JdbcPrimaryKeys(sql)) : NONE;
    }

    /** The key columns in key order; empty when the table's records go without a key. */
    List<String> of(RelationMessage message, List<Column> columns);

    /**
     * The replica identity's columns, as the Relation message flags them; under REPLICA IDENTITY FULL (which flags
     * every column) or NOTHING (which flags none), the primary key's, as Debezium keys such tables.
     *
     * @param primaryKey the primary key columns of a relation OID, in key order, empty without one
     */
    static RowKeyColumns replicaIdentity(IntFunction<List<String>> primaryKey) {
        return (message, columns) -> {
            char identity = message.replicaIdentity();
            if (identity == 'f' || identity == 'n') {
                return primaryKey.apply(message.relationId());
            }
            return columns.stream().filter(Column::key).map(Column::name).toList();
        };
    }
}
