package dev.pglane.sink.target;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one table's definition from pg_catalog: columns, primary and unique keys with their equality operators,
 * foreign keys. The session's search path is pinned to pg_catalog, so unqualified names here are the system's.
 */
final class CatalogReader {
    private static final String RELATION = "SELECT c.oid, c.relkind = 'p' FROM pg_class c"
            + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?"
            + " AND c.relkind IN ('r', 'p')";

    private static final String COLUMNS =
            "SELECT attname, pg_catalog.format_type(atttypid, atttypmod), attgenerated <> ''"
                    + " FROM pg_attribute WHERE attrelid = ? AND attnum > 0 AND NOT attisdropped ORDER BY attnum";

    /**
     * Unique indexes usable as a row identity or an ON CONFLICT arbiter: valid, without expressions or
     * predicates; INCLUDE columns (past indnkeyatts) are not part of the key. With each key column comes the
     * equality operator of its operator class (btree strategy 3), schema-qualified: the operator the index
     * answers, wherever its type lives (citext's is in the extension's schema, which the pinned search path
     * does not see).
     */
    private static final String UNIQUE_KEYS = "SELECT i.indisprimary, ARRAY(SELECT a.attname::text"
            + " FROM pg_catalog.unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)"
            + " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum"
            + " WHERE k.ord <= i.indnkeyatts ORDER BY k.ord),"
            + " ARRAY(SELECT pg_catalog.quote_ident(n.nspname) || '.' || o.oprname"
            + " FROM pg_catalog.unnest(i.indclass::oid[]) WITH ORDINALITY k(opclass, ord)"
            + " JOIN pg_opclass c ON c.oid = k.opclass"
            + " JOIN pg_amop m ON m.amopfamily = c.opcfamily AND m.amoplefttype = c.opcintype"
            + " AND m.amoprighttype = c.opcintype AND m.amopstrategy = 3"
            + " JOIN pg_operator o ON o.oid = m.amopopr JOIN pg_namespace n ON n.oid = o.oprnamespace"
            + " WHERE k.ord <= i.indnkeyatts ORDER BY k.ord)"
            + " FROM pg_index i WHERE i.indrelid = ? AND i.indisunique AND i.indisvalid"
            + " AND i.indexprs IS NULL AND i.indpred IS NULL ORDER BY i.indisprimary DESC, i.indexrelid";

    private static final String FOREIGN_KEYS = "SELECT " + attnames("con.conkey", "con.conrelid") + ", rn.nspname,"
            + " rc.relname, " + attnames("con.confkey", "con.confrelid")
            + " FROM pg_constraint con JOIN pg_class rc ON rc.oid = con.confrelid"
            + " JOIN pg_namespace rn ON rn.oid = rc.relnamespace"
            + " WHERE con.conrelid = ? AND con.contype = 'f' ORDER BY con.conname";

    private CatalogReader() {}

    private static String attnames(String numbers, String relation) {
        return "ARRAY(SELECT a.attname::text FROM pg_catalog.unnest(" + numbers + ") WITH ORDINALITY k(attnum, ord)"
                + " JOIN pg_attribute a ON a.attrelid = " + relation + " AND a.attnum = k.attnum ORDER BY k.ord)";
    }

    /** The table as {@code connection} sees it now, or empty if there is no such table. */
    static Optional<TargetTable> read(Connection connection, TableName name) throws SQLException {
        Relation relation = relation(connection, name);
        if (relation == null) {
            return Optional.empty();
        }
        long oid = relation.oid();
        List<String> primaryKey = List.of();
        List<List<String>> uniqueKeys = new ArrayList<>();
        Map<String, String> equality = new HashMap<>();
        try (PreparedStatement st = query(connection, UNIQUE_KEYS, oid);
                ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                List<String> columns = strings(rs.getArray(2));
                List<String> operators = strings(rs.getArray(3));
                for (int i = 0; i < columns.size() && i < operators.size(); i++) {
                    equality.putIfAbsent(columns.get(i), KeyEquality.checked(operators.get(i)));
                }
                if (rs.getBoolean(1)) {
                    primaryKey = columns;
                } else {
                    uniqueKeys.add(columns);
                }
            }
        }
        return Optional.of(new TargetTable(
                name,
                columns(connection, oid),
                primaryKey,
                uniqueKeys,
                foreignKeys(connection, oid),
                equality,
                relation.partitioned()));
    }

    private record Relation(long oid, boolean partitioned) {}

    private static Relation relation(Connection connection, TableName name) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(RELATION)) {
            st.setString(1, name.schema());
            st.setString(2, name.table());
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? new Relation(rs.getLong(1), rs.getBoolean(2)) : null;
            }
        }
    }

    private static List<TargetColumn> columns(Connection connection, long oid) throws SQLException {
        List<TargetColumn> columns = new ArrayList<>();
        try (PreparedStatement st = query(connection, COLUMNS, oid);
                ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                columns.add(new TargetColumn(rs.getString(1), rs.getString(2), rs.getBoolean(3)));
            }
        }
        return columns;
    }

    private static List<ForeignKey> foreignKeys(Connection connection, long oid) throws SQLException {
        List<ForeignKey> keys = new ArrayList<>();
        try (PreparedStatement st = query(connection, FOREIGN_KEYS, oid);
                ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                keys.add(new ForeignKey(
                        strings(rs.getArray(1)),
                        new TableName(rs.getString(2), rs.getString(3)),
                        strings(rs.getArray(4))));
            }
        }
        return keys;
    }

    private static PreparedStatement query(Connection connection, String sql, long oid) throws SQLException {
        PreparedStatement st = connection.prepareStatement(sql);
        st.setLong(1, oid);
        return st;
    }

    private static List<String> strings(Array array) throws SQLException {
        return List.of((String[]) array.getArray());
    }
}
