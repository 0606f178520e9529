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
    private final TableMapping mapping;
    private final Function<TableName, Optional<TargetTable>> catalog;
    private final boolean snapshotTruncate;

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

    /** The state of one {@link #of} call; it caches per table and per row schema, which repeat. */
    private final class Collector {
        private final Set<WriteKey> keys = new HashSet<>();
        private final Set<TableName> tables = new HashSet<>();
        private final Set<TableName> tableWide = new HashSet<>();
        private final Map<List<String>, TableName> targetNames = new HashMap<>();
        private final Map<TableName, Optional<TargetTable>> targets = new HashMap<>();
        private final Map<Schema, Optional<String>> checkedSchemas = new IdentityHashMap<>();

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
            TableName name = targetNames.computeIfAbsent(
                    List.of(event.source().schema(), event.source().table()),
                    source -> mapping.targetOf(source.get(0), source.get(1)));
            if (event.op() == Op.TRUNCATE) {
                return "TRUNCATE of " + name + " at " + record.position();
            }
            Optional<TargetTable> found = targets.computeIfAbsent(name, catalog);
            if (found.isEmpty()) {
                return "table " + name + " of " + record.position() + " is not in the target yet";
            }
            TargetTable target = found.get();
            String missing = missingColumn(target, event.before());
            missing = missing != null ? missing : missingColumn(target, event.after());
            if (missing != null) {
                return "column " + missing + " of " + record.position() + " is not in " + name + " yet";
            }
            tables.add(name);
            boolean changesRows = event.op() == Op.UPDATE || event.op() == Op.DELETE;
            if (changesRows && target.identityKey().isEmpty()) {
                tableWide.add(name);
            }
            addKeys(target, event, RowImage.BEFORE, event.before());
            addKeys(target, event, RowImage.AFTER, event.after());
            return null;
        }

        /** The first column of {@code row}'s schema the target lacks, or null; checked once per schema. */
        private String missingColumn(TargetTable target, Struct row) {
            if (row == null) {
                return null;
            }
            return checkedSchemas
                    .computeIfAbsent(
                            row.schema(),
                            schema -> schema.fields().stream()
                                    .map(Field::name)
                                    .filter(column -> target.column(column).isEmpty())
                                    .findFirst())
                    .orElse(null);
        }

        private void addKeys(TargetTable target, ChangeEvent event, RowImage image, Struct row) {
            if (row == null) {
                return;
            }
            addKey(target.name(), target.identityKey(), target.identityKey(), event, image, row);
            for (List<String> unique : target.uniqueKeys()) {
                addKey(target.name(), unique, unique, event, image, row);
            }
            for (ForeignKey foreignKey : target.foreignKeys()) {
                addKey(
                        foreignKey.referenced(),
                        foreignKey.referencedColumns(),
                        foreignKey.columns(),
                        event,
                        image,
                        row);
            }
        }

        /**
         * Adds the key {@code (table, keyColumns)} with the values of {@code rowColumns} in {@code row},
         * unless one of them is absent or NULL (a NULL never conflicts in a unique index). A value the
         * typed field cannot hold travels as PostgreSQL text in {@code text_values}; it is used as is,
         * since a column always travels the same way.
         */
        private void addKey(
                TableName table,
                List<String> keyColumns,
                List<String> rowColumns,
                ChangeEvent event,
                RowImage image,
                Struct row) {
            if (keyColumns.isEmpty()) {
                return;
            }
            List<Object> values = new ArrayList<>(rowColumns.size());
            for (String column : rowColumns) {
                Object value = row.schema().field(column) == null ? null : row.get(column);
                if (value == null) {
                    value = event.textValues().get(image.textValueKey(column));
                }
                if (value == null) {
                    return;
                }
                values.add(value);
            }
            keys.add(new WriteKey(table, keyColumns, values));
        }
    }
}
