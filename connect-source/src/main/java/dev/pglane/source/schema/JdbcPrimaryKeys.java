package dev.pglane.source.schema;

import dev.pglane.connect.database.SqlStateClass;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * Reads a table's primary key columns, in key order, from the catalog: one query per Relation message of a table
 * whose replica identity does not name its key ({@link RowKeyColumns#replicaIdentity}). Used by the reader thread
 * only; the connection stays the caller's.
 */
public final class JdbcPrimaryKeys implements IntFunction<List<String>> {

    private static final String QUERY = "SELECT a.attname FROM pg_catalog.pg_index i"
            + " JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) i.indrelid"
            + " AND a.attnum OPERATOR(pg_catalog.=) ANY (i.indkey::pg_catalog.int2[])"
            + " WHERE i.indrelid OPERATOR(pg_catalog.=) ?::pg_catalog.oid AND i.indisprimary"
            + " ORDER BY pg_catalog.array_position(i.indkey::pg_catalog.int2[], a.attnum)";

    private final Connection connection;

    /** @param connection a plain (not replication) connection to the source database */
    public JdbcPrimaryKeys(Connection connection) {
        this.connection = connection;
    }

    /**
     * @throws RetriableException if the connection failed while reading the catalog
     * @throws ConnectException if the query failed otherwise
     */
    @Override
    public List<String> apply(int relationId) {
        try (PreparedStatement query = connection.prepareStatement(QUERY)) {
            query.setLong(1, Integer.toUnsignedLong(relationId));
            List<String> columns = new ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    columns.add(rows.getString(1));
                }
            }
            return columns;
        } catch (SQLException e) {
            String problem = "cannot read the primary key of relation OID " + Integer.toUnsignedString(relationId)
                    + " from the catalog: " + e.getMessage();
            throw SqlStateClass.failure(problem, e);
        }
    }
}
