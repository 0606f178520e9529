package dev.pglane.source;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The catalog queries about tables that the publication check and the publication set-up share. */
public final class DatabaseTables {
    /** A table that a publication can hold: permanent, ordinary or partitioned, and not a partition. */
    public record Table(String schema, String table, boolean owned, boolean identified) {
        public String name() {
            return schema + "." + table;
        }
    }

    private DatabaseTables() {}

    /**
     * The publishable user tables. Partitions are left out: a publication holds their root. {@code
     * identified}: it has a primary key or a replica identity, so its updates and deletes carry the
     * old key. {@code owned}: the role may add it to a publication.
     */
    public static List<Table> publishable(Connection connection) throws SQLException {
        String sql = "SELECT n.nspname, c.relname, pg_catalog.pg_has_role(c.relowner, 'USAGE'),"
                + " c.relreplident IN ('f', 'i') OR (c.relreplident = 'd' AND EXISTS"
                + " (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary))"
                + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relpersistence = 'p'"
                + " AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_(toast|temp)'"
                + " ORDER BY 1, 2";
        List<Table> tables = new ArrayList<>();
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                tables.add(new Table(rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getBoolean(4)));
            }
        }
        return tables;
    }

    /**
     * The tables of {@code publication} that publish a column list (PostgreSQL 15 and later), by {@link Table#name()},
     * with their listed columns in table order; none on servers before 15.
     */
    public static Map<String, List<String>> columnLists(Connection connection, String publication) throws SQLException {
        Map<String, List<String>> lists = new HashMap<>();
        if (connection.getMetaData().getDatabaseMajorVersion() < 15) {
            return lists;
        }
        try (PreparedStatement st = connection.prepareStatement("SELECT n.nspname, c.relname, ARRAY(SELECT a.attname"
                + " FROM pg_catalog.pg_attribute a WHERE a.attrelid = c.oid AND a.attnum = ANY (pr.prattrs)"
                + " ORDER BY a.attnum) FROM pg_catalog.pg_publication_rel pr"
                + " JOIN pg_catalog.pg_publication p ON p.oid = pr.prpubid"
                + " JOIN pg_catalog.pg_class c ON c.oid = pr.prrelid"
                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE p.pubname = ? AND pr.prattrs IS NOT NULL")) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String[] columns = (String[]) rs.getArray(3).getArray();
                    lists.put(new Table(rs.getString(1), rs.getString(2), true, true).name(), List.of(columns));
                }
            }
        }
        return lists;
    }

    public static boolean publicationExists(Connection connection, String publication) throws SQLException {
        try (PreparedStatement st =
                connection.prepareStatement("SELECT 1 FROM pg_catalog.pg_publication WHERE pubname = ?")) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * The tables a publication publishes, as {@code schema.table} of their partition root, so that
     * publish_via_partition_root does not change the answer.
     */
    public static Set<String> published(Connection connection, String publication) throws SQLException {
        String sql = "SELECT DISTINCT rn.nspname OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) r.relname"
                + " FROM pg_catalog.pg_publication_tables pt"
                + " JOIN pg_catalog.pg_namespace n ON n.nspname OPERATOR(pg_catalog.=) pt.schemaname"
                + " JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) n.oid"
                + " AND c.relname OPERATOR(pg_catalog.=) pt.tablename"
                + " JOIN pg_catalog.pg_class r ON r.oid OPERATOR(pg_catalog.=)"
                + " coalesce(pg_catalog.pg_partition_root(c.oid), c.oid)"
                + " JOIN pg_catalog.pg_namespace rn ON rn.oid OPERATOR(pg_catalog.=) r.relnamespace"
                + " WHERE pt.pubname OPERATOR(pg_catalog.=) ?";
        Set<String> names = new HashSet<>();
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
        }
        return names;
    }
}
