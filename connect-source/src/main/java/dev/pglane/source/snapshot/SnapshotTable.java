package dev.pglane.source.snapshot;

import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.signal.SnapshotFilter;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A captured table as the snapshot reads it: the columns pgoutput publishes for it, in its order and with its key
 * flags, and the key its chunks are cut along.
 *
 * @param chunkKey the primary key's columns in index order, else the replica identity index's; empty when the table
 *     has neither, which is then read in one chunk
 * @param estimatedRows the rows the server's statistics estimate ({@code reltuples}), 0 when it has none
 * @param estimatedBytes the table's size on disk with its TOAST ({@code pg_table_size}), for its average row size
 * @param partitioned a partitioned table, published as its partitions' root ({@code publish_via_partition_root}):
 *     its rows are its partitions', where any other table's are its own (an inheritance parent's children are tables
 *     of their own)
 * @param rowFilter the publication's row filter for the table (PostgreSQL 15+), as the server deparses it for this
 *     session ({@code pg_get_expr}, through {@code pg_publication_tables.rowfilter}), or {@code null}: every row is
 *     published; see {@link SnapshotCatalog} for why its text may go into a chunk's query
 */
record SnapshotTable(
        int oid,
        String schema,
        String table,
        char replicaIdentity,
        List<RelationColumn> columns,
        List<KeyColumn> chunkKey,
        long estimatedRows,
        long estimatedBytes,
        boolean partitioned,
        String rowFilter) {

    /** A column of the chunk key, with the type name the server formats for it (for typed literals). */
    record KeyColumn(String name, String typeName) {}

    SnapshotTable {
        columns = List.copyOf(columns);
        chunkKey = List.copyOf(chunkKey);
    }

    /** {@code schema.table}, as END's {@code data_collections} and the source offset name it. */
    String name() {
        return schema + "." + table;
    }

    /**
     * Rows per chunk: {@code maxRows}, or fewer where that many rows of the table's average size would take more than
     * {@code maxBytes} (0: no bound). Dead rows and free space count into the size on disk, so the average errs
     * large, and chunks small. Without statistics, {@code maxRows}.
     */
    long rowsPerChunk(long maxRows, long maxBytes) {
        if (maxBytes <= 0 || estimatedRows <= 0 || estimatedBytes <= 0) {
            return maxRows;
        }
        double rowBytes = (double) estimatedBytes / estimatedRows;
        return Math.max(1, Math.min(maxRows, (long) (maxBytes / rowBytes)));
    }

    boolean keyed() {
        return !chunkKey.isEmpty();
    }

    /** The Relation message pgoutput would send for the table now, to decode its rows before it sent one. */
    RelationMessage relationMessage() {
        return new RelationMessage(0, oid, schema, table, replicaIdentity, columns);
    }

    /** Positions of the chunk key's columns among {@link #columns()}. */
    int[] keyPositions() {
        int[] positions = new int[chunkKey.size()];
        for (int k = 0; k < positions.length; k++) {
            String name = chunkKey.get(k).name();
            positions[k] = -1;
            for (int c = 0; c < columns.size(); c++) {
                if (columns.get(c).name().equals(name)) {
                    positions[k] = c;
                }
            }
            if (positions[k] < 0) {
                throw new IllegalStateException("key column " + name + " of " + name() + " is not published");
            }
        }
        return positions;
    }

    /** Why {@code filter} cannot select rows of the table, or {@code null} when it can (or is none). */
    String refusal(SnapshotFilter filter) {
        if (filter == null) {
            return null;
        }
        if (!keyed()) {
            // its one chunk replaces the whole table on the target, and its rows have no key to upsert by
            return "a table without a primary key or replica identity index is snapshotted whole, not filtered";
        }
        int columns = chunkKey().size();
        for (List<String> bound : Arrays.asList(filter.from(), filter.to())) {
            if (bound != null && bound.size() != columns) {
                return "its key range gives " + bound.size() + " values for a key of " + columns + " columns "
                        + chunkKey().stream().map(SnapshotTable.KeyColumn::name).toList();
            }
        }
        if (filter.where() != null) {
            Set<String> published = columns().stream().map(RelationColumn::name).collect(Collectors.toSet());
            List<String> unknown = filter.where().columns().stream()
                    .filter(c -> !published.contains(c))
                    .toList();
            if (!unknown.isEmpty()) {
                // a condition on a column the publication keeps back would tell which rows hold which values of it
                return "its condition names " + unknown + ", which are not columns the publication publishes for it";
            }
        }
        return null;
    }
}
