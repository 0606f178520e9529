package dev.pglane.sink.apply;

import static dev.pglane.sink.target.Identifiers.qualified;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.TargetTable;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.SnapshotChunk;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a snapshot chunk does on the target before its rows, in its own target transaction. The chunk that opens a
 * read of its whole table (its END says {@code table_start}) empties the table when {@code
 * snapshot.target.prepare=truncate}: every later chunk of the table follows it in commit order and brings its range
 * as the source has it then, so nothing applied before is needed, and each chunk then finds its range empty and goes
 * in by COPY. Any other chunk deletes the rows of its key range that it does not hold ({@link StrayRows}).
 *
 * <p>A chunk's table is that of its records. A chunk without records names its table only by {@code schema.table}
 * text, which is not checked like a record, so the target is left as it is: with a WARN when the chunk is empty, quietly
 * when its END counts rows this sink does not have (a table group's sink passes over their topic).
 */
final class ChunkPreparation {
    private static final Logger log = LoggerFactory.getLogger(ChunkPreparation.class);

    private final Connection connection;
    private final RowPlans plans;
    private final boolean truncate;

    ChunkPreparation(Connection connection, RowPlans plans, boolean truncate) {
        this.connection = connection;
        this.plans = plans;
        this.truncate = truncate;
    }

    /** Empties the chunk's table if {@code tx} opens a read of it whole, else deletes the chunk's stray rows. */
    void prepare(SourceTransaction tx) throws SQLException {
        if (!emptyTable(tx)) {
            deleteStrays(tx);
        }
    }

    /**
     * Empties the table of {@code tx} if it is the chunk that opens a read of the whole table and the setting asks for
     * it: with TRUNCATE ({@code ONLY}, so that inheritance children, tables of their own on the source, keep their
     * rows; a partitioned table with its partitions), or with DELETE when another table references it, since
     * TRUNCATE would have to empty that one too. The apply sessions' {@code session_replication_role = replica}
     * keeps the referencing rows, as the source's snapshot brings them back.
     *
     * @return true if it emptied the table
     */
    boolean emptyTable(SourceTransaction tx) throws SQLException {
        SnapshotChunk chunk = tx.end().snapshot();
        if (!truncate || chunk == null || !chunk.tableStart()) {
            return false;
        }
        TableName table = chunkTable(tx);
        if (table == null || plans.target(table).isEmpty()) {
            return false; // none to name, or created by this chunk's first row: nothing to empty
        }
        Shape shape = shape(table);
        if (shape == null) {
            return false;
        }
        String only = shape.partitioned ? "" : "ONLY ";
        String sql = (shape.referenced ? "DELETE FROM " : "TRUNCATE ") + only + qualified(table);
        long deleted;
        try (Statement st = connection.createStatement()) {
            st.execute(sql);
            deleted = st.getUpdateCount();
        } catch (SQLException e) {
            throw new SQLException(
                    "Could not empty " + table + " before snapshot " + chunk.snapshotId() + " of " + chunk.table()
                            + " (snapshot.target.prepare=truncate, " + tx.describe() + "): " + e.getMessage(),
                    e.getSQLState(),
                    e);
        }
        log.info(
                "Snapshot {}: emptied {} ({}) before the first chunk of {} ({})",
                chunk.snapshotId(),
                table,
                shape.referenced ? "DELETE of " + deleted + " rows, as another table references it" : "TRUNCATE",
                chunk.table(),
                tx.describe());
        return true;
    }

    /** Whether a table is partitioned, and whether another table's foreign key references it. */
    private record Shape(boolean partitioned, boolean referenced) {}

    /** The table's shape, or null when it is gone. */
    private Shape shape(TableName table) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("SELECT c.relkind = 'p', EXISTS (SELECT 1 FROM"
                + " pg_catalog.pg_constraint k WHERE k.confrelid = c.oid AND k.contype = 'f' AND k.conrelid <> c.oid)"
                + " FROM pg_catalog.pg_class c WHERE c.oid = pg_catalog.to_regclass(?)")) {
            st.setString(1, qualified(table));
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? new Shape(rs.getBoolean(1), rs.getBoolean(2)) : null;
            }
        }
    }

    private void deleteStrays(SourceTransaction tx) throws SQLException {
        SnapshotChunk chunk = tx.end().snapshot();
        if (chunk == null || chunk.range() == null) {
            return;
        }
        TableName table = chunkTable(tx);
        if (table == null && tx.end().eventCount() > 0) {
            // its rows are on a topic a table group passes over (apply.scope), or all went to the dead letter queue,
            // which reported each: the range is another sink's, or not known to be complete
            log.debug(
                    "Snapshot chunk {} of {} ({}): none of its rows here", chunk.chunk(), chunk.table(), tx.describe());
            return;
        }
        if (table == null) {
            log.warn(
                    "Snapshot chunk {} of {} ({}) holds no rows: rows the target has in its key range are not checked"
                            + " against the source",
                    chunk.chunk(),
                    chunk.table(),
                    tx.describe());
            return;
        }
        TargetTable target = plans.target(table).orElse(null);
        if (target == null) {
            return; // created by this chunk's first row: nothing of it to delete
        }
        int deleted = StrayRows.delete(connection, table, target, chunk.range(), tx.changes());
        if (deleted > 0) {
            log.info(
                    "Snapshot chunk {} of {} deleted {} rows of {} that the source no longer has in its key range ({})",
                    chunk.chunk(),
                    chunk.table(),
                    deleted,
                    table,
                    tx.describe());
        }
    }

    /** The target table of the chunk's first row, or null when it holds none. */
    private TableName chunkTable(SourceTransaction tx) throws SQLException {
        for (ChangeRecord record : tx.changes()) {
            if (record.event().op() == Op.READ) {
                return plans.targetOf(record.event());
            }
        }
        return null;
    }
}
