package dev.pglane.source.snapshot;

import dev.pglane.source.pgoutput.RelationColumn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads which tables a snapshot covers, and how, from the catalog: exactly the relations the publication sends
 * changes for ({@code pg_publication_tables}: a partitioned table's root under {@code publish_via_partition_root}, else
 * its partitions), with the columns
 * pgoutput publishes (its column list from PostgreSQL 15, else every column but generated ones) and their key flags as
 * pgoutput sets them (every column under REPLICA IDENTITY FULL, else the identity index's), and, from PostgreSQL 15,
 * the publication's row filter, which a chunk applies to its rows as pgoutput applies it to changes.
 *
 * <p>The row filter is the one SQL text in a chunk's query that pglane does not build itself. It is {@code
 * pg_publication_tables.rowfilter}: {@code pg_get_expr} of the expression tree the server stored when the publication
 * owner (who decides what the stream publishes anyway) created or altered the publication, deparsed by the server in
 * the session that reads the catalog. No row's data is in it. The server admitted the tree only if it holds columns of
 * the table, constants, and immutable built-in operators, functions and types (no subquery, no user-defined function,
 * nothing that reads another table), and the deparse quotes its identifiers and constants; it is parsed again in a
 * snapshot session with the same pinned {@code search_path}, where a name the deparse left unqualified resolves as it
 * did, so the server evaluates the same expression it evaluates for the stream.
 *
 * <p>The snapshot reads with one publication, as the stream does; pgoutput combines the filters of several
 * publications of one subscription with OR, which does not arise here. The filter is read when a snapshot is planned
 * (the task's start, and a table a signal adds is taken as planned then); an {@code ALTER PUBLICATION} that changes it
 * while a snapshot runs reaches the chunks read after the task's next start. Like pgoutput, which applies a changed
 * filter to the changes after it and never revisits rows it sent, the snapshot does not take back rows a chunk sent
 * under the old filter; a new snapshot of the table (a signal) sends what the filter now admits, and its chunks delete
 * the target's other rows in their key ranges.
 */
final class SnapshotCatalog {
    private SnapshotCatalog() {}

    static List<SnapshotTable> tables(Connection sql, String publication) throws SQLException {
        boolean columnLists = sql.getMetaData().getDatabaseMajorVersion() >= 15;
        String published = columnLists ? "a.attname = ANY (pt.attnames)" : "a.attgenerated = ''";
        String rowFilter = columnLists ? "pt.rowfilter" : "NULL::pg_catalog.text";
        String query = "SELECT c.oid, n.nspname, c.relname, c.relreplident, a.attname, a.atttypid, a.atttypmod,"
                + " c.relreplident = 'f' OR EXISTS (SELECT 1 FROM pg_catalog.pg_index i WHERE i.indrelid = c.oid"
                + " AND a.attnum = ANY (i.indkey) AND ((c.relreplident = 'd' AND i.indisprimary)"
                + " OR (c.relreplident = 'i' AND i.indisreplident))), GREATEST(c.reltuples, 0)::int8,"
                + " pg_catalog.pg_table_size(c.oid), c.relkind = 'p', " + rowFilter
                + " FROM pg_catalog.pg_publication_tables pt"
                + " JOIN pg_catalog.pg_namespace n ON n.nspname = pt.schemaname"
                + " JOIN pg_catalog.pg_class c ON c.relnamespace = n.oid AND c.relname = pt.tablename"
                + " JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
                + " WHERE pt.pubname = ? AND " + published
                + " ORDER BY n.nspname, c.relname, a.attnum";
        Map<Integer, Builder> tables = new LinkedHashMap<>();
        try (PreparedStatement st = sql.prepareStatement(query)) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    int oid = (int) rs.getLong(1);
                    Builder table = tables.get(oid);
                    if (table == null) {
                        table = new Builder(
                                oid,
                                rs.getString(2),
                                rs.getString(3),
                                rs.getString(4).charAt(0),
                                rs.getLong(9),
                                rs.getLong(10),
                                rs.getBoolean(11),
                                rs.getString(12));
                        tables.put(oid, table);
                    }
                    table.columns.add(
                            new RelationColumn(rs.getString(5), (int) rs.getLong(6), rs.getInt(7), rs.getBoolean(8)));
                }
            }
        }
        List<SnapshotTable> out = new ArrayList<>();
        for (Builder table : tables.values()) {
            out.add(new SnapshotTable(
                    table.oid,
                    table.schema,
                    table.table,
                    table.identity,
                    table.columns,
                    chunkKey(sql, table.oid),
                    table.estimatedRows,
                    table.estimatedBytes,
                    table.partitioned,
                    table.rowFilter));
        }
        return out;
    }

    /** The primary key's columns, else the replica identity index's, in index order. */
    private static List<SnapshotTable.KeyColumn> chunkKey(Connection sql, int oid) throws SQLException {
        String query = "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod)"
                + " FROM (SELECT i.indrelid, i.indkey FROM pg_catalog.pg_index i"
                + " WHERE i.indrelid = ? AND (i.indisprimary OR i.indisreplident)"
                + " ORDER BY i.indisprimary DESC LIMIT 1) k"
                + " CROSS JOIN LATERAL pg_catalog.generate_subscripts(k.indkey::pg_catalog.int2[], 1) AS p(position)"
                + " JOIN pg_catalog.pg_attribute a ON a.attrelid = k.indrelid AND a.attnum = (k.indkey::pg_catalog.int2[])[p.position]"
                + " ORDER BY p.position";
        List<SnapshotTable.KeyColumn> key = new ArrayList<>();
        try (PreparedStatement st = sql.prepareStatement(query)) {
            st.setLong(1, Integer.toUnsignedLong(oid));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    key.add(new SnapshotTable.KeyColumn(rs.getString(1), rs.getString(2)));
                }
            }
        }
        return key;
    }

    private static final class Builder {
        final int oid;
        final String schema;
        final String table;
        final char identity;
        final long estimatedRows;
        final long estimatedBytes;
        final boolean partitioned;
        final String rowFilter;
        final List<RelationColumn> columns = new ArrayList<>();

        Builder(
                int oid,
                String schema,
                String table,
                char identity,
                long estimatedRows,
                long estimatedBytes,
                boolean partitioned,
                String rowFilter) {
            this.oid = oid;
            this.schema = schema;
            this.table = table;
            this.identity = identity;
            this.estimatedRows = estimatedRows;
            this.estimatedBytes = estimatedBytes;
            this.partitioned = partitioned;
            this.rowFilter = rowFilter;
        }
    }
}
