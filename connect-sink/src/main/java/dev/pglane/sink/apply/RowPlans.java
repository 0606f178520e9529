package dev.pglane.sink.apply;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.target.TableEvolution;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.TargetCatalog;
import dev.pglane.sink.target.TargetTable;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;

/**
 * A session's {@link RowPlan}s, one per shape of change, made when a shape is first seen: the
 * target table is looked up and fitted to the row ({@code auto.create}, {@code auto.evolve}) at that
 * moment, so a plan always fits its table. Tables changed by DDL are remembered until the
 * transaction ends, when the shared catalog forgets them again so that every worker re-reads the
 * committed (or rolled back) definition.
 */
final class RowPlans {
    private static final int MAX_PLANS = 1024;

    private final Connection connection;
    private final TableMapping mapping;
    private final TargetCatalog catalog;
    private final TableEvolution evolution;
    private final RowPlan.Settings settings;
    private final Map<SourceTable, TableName> targets = new HashMap<>();
    private final Set<TableName> changedTables = new HashSet<>();
    private final Map<Shape, RowPlan> plans = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Shape, RowPlan> eldest) {
            return size() > MAX_PLANS;
        }
    };

    RowPlans(
            Connection connection,
            TableMapping mapping,
            TargetCatalog catalog,
            TableEvolution evolution,
            RowPlan.Settings settings) {
        this.connection = connection;
        this.mapping = mapping;
        this.catalog = catalog;
        this.evolution = evolution;
        this.settings = settings;
    }

    private record SourceTable(String schema, String table) {}

    /** The target table of a record's source table, through {@code table.name.format}. */
    TableName targetOf(ChangeEvent event) {
        SourceInfo source = event.source();
        return targets.computeIfAbsent(
                new SourceTable(source.schema(), source.table()), s -> mapping.targetOf(s.schema(), s.table()));
    }

    /** The table as this session sees it, its own uncommitted DDL included. */
    Optional<TargetTable> target(TableName table) throws SQLException {
        return catalog.lookup(table, connection);
    }

    /** The plan for a row change (op c, r, u or d), fitting the target table to it first if needed. */
    RowPlan planFor(ChangeRecord record) throws SQLException {
        ChangeEvent event = record.event();
        TableName table = targetOf(event);
        Schema rowSchema = (event.after() != null ? event.after() : event.before()).schema();
        Optional<TargetTable> target = target(table);
        if (target.isPresent()) {
            RowPlan plan = plans.get(Shape.of(target.get(), event, rowSchema));
            if (plan != null) {
                return plan;
            }
        }
        // a second look: the table read again after the DDL may differ from what this session had cached (changed
        // by hand meanwhile), and may need DDL of its own
        for (int pass = 0; pass < 2 && evolution.ensure(connection, table, target, rowSchema, record); pass++) {
            changedTables.add(table);
            catalog.invalidate(table);
            target = target(table);
        }
        TargetTable fitted = target.orElseThrow(() -> new IllegalStateException("table " + table + " was not created"));
        RowPlan plan = RowPlan.of(fitted, record, rowSchema, settings);
        plans.put(Shape.of(fitted, event, rowSchema), plan);
        return plan;
    }

    /** The transaction ended: other sessions must re-read the tables this one changed. */
    void transactionEnded() {
        changedTables.forEach(catalog::invalidate);
        changedTables.clear();
    }

    /**
     * What a plan depends on. The catalog and the converters hand out the same table and schema
     * instances again and again, so equality is checked by identity first and the hash avoids
     * walking the schemas. A change of a table whose snapshot is pending meets its conflicts otherwise, so it
     * has a shape of its own.
     */
    private record Shape(
            TargetTable target, Op op, Schema rowSchema, List<String> unchangedToast, boolean pendingSnapshot) {
        static Shape of(TargetTable target, ChangeEvent event, Schema rowSchema) {
            return new Shape(target, event.op(), rowSchema, event.unchangedToast(), event.pendingSnapshot());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Shape other
                    && op == other.op
                    && pendingSnapshot == other.pendingSnapshot
                    && (target == other.target || target.equals(other.target))
                    && (rowSchema == other.rowSchema || rowSchema.equals(other.rowSchema))
                    && unchangedToast.equals(other.unchangedToast);
        }

        @Override
        public int hashCode() {
            return Objects.hash(target.name(), op, rowSchema.name(), unchangedToast, pendingSnapshot);
        }
    }
}
