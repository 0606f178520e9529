package dev.pglane.local.verify;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Which source tables a comparison covers: every table of the schemas that hold tables of a publication (what a
 * pglane source would stream), or, when the source has no publication yet, every table of every user schema.
 *
 * <p>Partitions are left out: their root's rows already include them.
 */
final class SourceCatalog {
    private static final String PUBLISHED_SCHEMAS = "SELECT DISTINCT schemaname FROM pg_publication_tables";
    // pglane keeps its own bookkeeping (e.g. the sink's progress) in schemas named pglane*: not user data
    private static final String USER_SCHEMAS = "SELECT nspname FROM pg_namespace"
            + " WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'"
            + " AND nspname <> 'pglane' AND nspname NOT LIKE 'pglane\\_%'";
    private static final String TABLES = "SELECT c.oid, n.nspname, c.relname FROM pg_class c"
            + " JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname = ANY (?)"
            + " ORDER BY n.nspname, c.relname";
    private static final String COLUMNS = "SELECT attname FROM pg_attribute"
            + " WHERE attrelid = ?::oid AND attnum > 0 AND NOT attisdropped ORDER BY attnum";
    private static final String KEY_COLUMNS = "SELECT a.attname FROM pg_index i"
            + " CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)"
            + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum"
            + " WHERE i.indrelid = ?::oid AND i.indisprimary ORDER BY k.position";

    private SourceCatalog() {}

    static List<SourceTable> tablesToCompare(Connection source) throws SQLException {
        List<String> schemas = strings(source, PUBLISHED_SCHEMAS, null);
        if (schemas.isEmpty() && !hasPublication(source)) {
            schemas = strings(source, USER_SCHEMAS, null);
        }
        List<SourceTable> tables = new ArrayList<>();
        try (PreparedStatement statement = source.prepareStatement(TABLES)) {
            Array schemaArray = source.createArrayOf("text", schemas.toArray());
            statement.setArray(1, schemaArray);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    long oid = rs.getLong(1);
                    tables.add(new SourceTable(
                            rs.getString(2),
                            rs.getString(3),
                            strings(source, COLUMNS, oid),
                            strings(source, KEY_COLUMNS, oid)));
                }
            }
        }
        return tables;
    }

    private static boolean hasPublication(Connection source) throws SQLException {
        return !strings(source, "SELECT pubname FROM pg_publication", null).isEmpty();
    }

    private static List<String> strings(Connection connection, String sql, Long oid) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            if (oid != null) {
                statement.setLong(1, oid);
            }
            List<String> values = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    values.add(rs.getString(1));
                }
            }
            return values;
        }
    }
}
