package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.target.ForeignKey;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.TargetTable;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.marker.SnapshotChunk;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Computes a transaction's {@link WriteSet} from its change records and the target's catalog
 * (parallel-apply.md R2–R5): for the old and the new row of every change, the value of the target's
 * identity key, of each unique key and of each foreign key (as the referenced table's key, so a child
 * row waits for its parent's transaction). Not thread-safe; one per scheduler.
 */
public final class WriteSetBuilder {
    /**
     * Most source tables and row schemas remembered across transactions: both come from records, so a flood of
     * new ones must not grow the memory; past this the cache starts over.
     */
    static final int CACHE_MAX = 4096;

    private final TableMapping mapping;
    private final Function<TableName, Optional<TargetTable>> catalog;
    private final boolean snapshotTruncate;
    /** Each source table's target table: the mapping is fixed for the task's life. */
    private final Map<SourceTable, TableName> targetNames = new HashMap<>();
    /**
     * Each row schema resolved against its target table as the catalog last gave it (a table the catalog reads
     * again, after DDL, is a new {@link TargetTable}, and the schema is resolved again). Schemas by identity: the
     * decoders hand out one instance per schema they read.
     */
    private final Map<Schema, RowKeys> rowKeys = new IdentityHashMap<>();

    /**
     * @param mapping maps each record's source table to its target table
     * @param catalog the target tables as currently known; empty for a table that does not exist yet
     * @param snapshotTruncate whether the chunk that opens a snapshot's read of a whole table empties its target
     *     table first ({@code snapshot.target.prepare=truncate})
     */
    public WriteSetBuilder(
            TableMapping mapping, Function<TableName, Optional<TargetTable>> catalog, boolean snapshotTruncate) {
        this.mapping = mapping;
        this.catalog = catalog;
        this.snapshotTruncate = snapshotTruncate;
    }

    public WriteSet of(SourceTransaction tx) {
        if (tx.changes().spilled()) {
            return WriteSet.barrier(tx.describe() + " was spilled to disk, too large to track by key");
        }
        SnapshotChunk chunk = tx.end().snapshot();
        if (snapshotTruncate && chunk != null && chunk.tableStart()) {
            // it locks its whole table; applied beside a later change of the table, the two would deadlock
            return WriteSet.barrier(tx.describe() + " empties its table before its rows (snapshot.target.prepare)");
        }
        return new Collector().collect(tx);
    }

    private TableName targetOf(String schema, String table) {
        SourceTable source = new SourceTable(schema, table);
        TableName name = targetNames.get(source);
        if (name == null) {
            if (targetNames.size() >= CACHE_MAX) {
                targetNames.clear();
            }
            name = mapping.targetOf(schema, table);
            targetNames.put(source, name);
        }
        return name;
    }

    /** {@code row}'s schema resolved against {@code target}, from the cache while the catalog's table is the same. */
    private RowKeys rowKeys(TargetTable target, Struct row) {
        RowKeys keys = rowKeys.get(row.schema());
        if (keys == null || keys.target() != target) {
            if (rowKeys.size() >= CACHE_MAX) {
                rowKeys.clear();
            }
            keys = RowKeys.resolve(target, row.schema());
            rowKeys.put(row.schema(), keys);
        }
        return keys;
    }

    private record SourceTable(String schema, String table) {}

    /**
     * A row schema against one version of its target table: the first column the target lacks (or null), and each
     * key the row writes with the schema's fields for its columns.
     */
    private record RowKeys(TargetTable target, String missingColumn, List<KeyFields> keys) {
        static RowKeys resolve(TargetTable target, Schema schema) {
            String missing = schema.fields().stream()
                    .map(Field::name)
                    .filter(column -> target.column(column).isEmpty())
                    .findFirst()
                    .orElse(null);
            List<KeyFields> keys = new ArrayList<>();
            KeyFields.add(keys, target.name(), target.identityKey(), target.identityKey(), schema);
            for (List<String> unique : target.uniqueKeys()) {
                KeyFields.add(keys, target.name(), unique, unique, schema);
            }
            for (ForeignKey foreignKey : target.foreignKeys()) {
                KeyFields.add(
                        keys, foreignKey.referenced(), foreignKey.referencedColumns(), foreignKey.columns(), schema);
            }
            return new RowKeys(target, missing, List.copyOf(keys));
        }
    }

    /**
     * The key {@code (table, keyColumns)} and, for each of {@code rowColumns}, the row schema's field, null where the
     * schema has none.
     */
    private record KeyFields(TableName table, List<String> keyColumns, List<String> rowColumns, List<Field> fields) {
        static void add(
                List<KeyFields> keys,
                TableName table,
                List<String> keyColumns,
                List<String> rowColumns,
                Schema schema) {
            if (keyColumns.isEmpty()) {
                return;
            }
            List<Field> fields = new ArrayList<>(rowColumns.size());
            for (String column : rowColumns) {
                fields.add(schema.field(column));
            }
            keys.add(new KeyFields(table, keyColumns, rowColumns, Collections.unmodifiableList(fields)));
        }
    }

    /** The state of one {@link #of} call: one view of the catalog for the whole transaction. */
    private final class Collector {
        private final Set<WriteKey> keys = new HashSet<>();
        private final Set<TableName> tables = new HashSet<>();
        private final Set<TableName> tableWide = new HashSet<>();
        private final Map<TableName, Optional<TargetTable>> targets = new HashMap<>();

        WriteSet collect(SourceTransaction tx) {
            for (ChangeRecord record : tx.changes()) {
                String barrier = add(record);
                if (barrier != null) {
                    return WriteSet.barrier(barrier);
                }
            }
            return WriteSet.of(keys, tables, tableWide);
        }

        /** Adds the record's keys; returns why the transaction must be a barrier instead, or null. */
        private String add(ChangeRecord record) {
            ChangeEvent event = record.event();
            if (event.op() == Op.MESSAGE) {
                return null;
            }
            TableName name = targetOf(event.source().schema(), event.source().table());
            if (event.op() == Op.TRUNCATE) {
                return "TRUNCATE of " + name + " at " + record.position();
            }
            Optional<TargetTable> found = targets.computeIfAbsent(name, catalog);
            if (found.isEmpty()) {
                return "table " + name + " of " + record.position() + " is not in the target yet";
            }
            TargetTable target = found.get();
            RowKeys before = resolved(target, event.before());
            RowKeys after = resolved(target, event.after());
            String missing = missingColumn(before);
            missing = missing != null ? missing : missingColumn(after);
            if (missing != null) {
                return "column " + missing + " of " + record.position() + " is not in " + name + " yet";
            }
            tables.add(name);
            boolean changesRows = event.op() == Op.UPDATE || event.op() == Op.DELETE;
            if (changesRows && target.identityKey().isEmpty()) {
                tableWide.add(name);
            }
            addKeys(before, event, RowImage.BEFORE, event.before());
            addKeys(after, event, RowImage.AFTER, event.after());
            return null;
        }

        private RowKeys resolved(TargetTable target, Struct row) {
            return row == null ? null : rowKeys(target, row);
        }

        private static String missingColumn(RowKeys resolved) {
            return resolved == null ? null : resolved.missingColumn();
        }

        private void addKeys(RowKeys resolved, ChangeEvent event, RowImage image, Struct row) {
            if (resolved == null) {
                return;
            }
            for (KeyFields key : resolved.keys()) {
                addKey(key, event, image, row);
            }
        }

        /**
         * Adds {@code key} with the values of its row columns in {@code row}, unless one of them is absent or NULL (a
         * NULL never conflicts in a unique index). A value the typed field cannot hold travels as PostgreSQL text in
         * {@code text_values}; it is used as is, since a column always travels the same way.
         */
        private void addKey(KeyFields key, ChangeEvent event, RowImage image, Struct row) {
            List<Object> values = new ArrayList<>(key.fields().size());
            for (int i = 0; i < key.fields().size(); i++) {
                Field field = key.fields().get(i);
                Object value = field == null ? null : row.get(field);
                if (value == null) {
                    value = event.textValues()
                            .get(image.textValueKey(key.rowColumns().get(i)));
                }
                if (value == null) {
                    return;
                }
                values.add(value);
            }
            keys.add(new WriteKey(key.table(), key.keyColumns(), values));
        }
    }
}
