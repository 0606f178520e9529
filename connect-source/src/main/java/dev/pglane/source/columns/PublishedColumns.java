package dev.pglane.source.columns;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.postgresql.PGConnection;

/**
 * With {@code publication.column.lists}, the column list a table gets in a publication pglane made (PostgreSQL 15
 * and later): every column but those {@link ColumnRules} keep out of the records, so that their values never leave
 * the server, not even to pglane. Masked columns stay (pglane masks them), and so does the replica identity, which a
 * publication of updates and deletes must carry; a table under {@code REPLICA IDENTITY FULL}, whose every column is
 * the identity, a partitioned table, and a table the rules take nothing from publish all their columns. Generated
 * columns are left out: PostgreSQL before 18 does not publish them.
 */
public final class PublishedColumns {
    /** The first major whose publications take column lists. */
    static final int FIRST_MAJOR = 15;

    /** Every table publishes every column: what a publication holds without {@code publication.column.lists}. */
    public static final PublishedColumns ALL = new PublishedColumns(ColumnRules.NONE, false);

    private final ColumnRules rules;
    private final boolean enabled;

    /** @param enabled {@code publication.column.lists} */
    public PublishedColumns(ColumnRules rules, boolean enabled) {
        this.rules = rules;
        this.enabled = enabled;
    }

    /** Whether tables get column lists at all ({@code publication.column.lists}). */
    public boolean enabled() {
        return enabled;
    }

    /** Whether the server's publications take column lists. */
    public static boolean supported(Connection connection) throws SQLException {
        return connection.getMetaData().getDatabaseMajorVersion() >= FIRST_MAJOR;
    }

    /** The columns {@code schema.table} publishes, or empty when it should publish them all (no list). */
    public Optional<List<String>> of(Connection connection, String schema, String table) throws SQLException {
        if (!enabled || !supported(connection)) {
            return Optional.empty();
        }
        List<String> kept = new ArrayList<>();
        int published = 0;
        try (PreparedStatement st = connection.prepareStatement("SELECT a.attname, c.relkind = 'r'"
                + " AND c.relreplident <> 'f', a.attgenerated <> '', EXISTS (SELECT 1 FROM pg_catalog.pg_index i"
                + " WHERE i.indrelid = c.oid AND a.attnum = ANY (i.indkey) AND CASE c.relreplident"
                + " WHEN 'i' THEN i.indisreplident WHEN 'd' THEN i.indisprimary ELSE false END)"
                + " FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid"
                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ? AND a.attnum > 0 AND NOT a.attisdropped"
                + " ORDER BY a.attnum")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    if (!rs.getBoolean(2)) {
                        return Optional.empty();
                    }
                    String column = rs.getString(1);
                    if (rs.getBoolean(3)) {
                        continue;
                    }
                    published++;
                    if (rs.getBoolean(4) || !rules.excludes(schema, table, column)) {
                        kept.add(column);
                    }
                }
            }
        }
        return kept.size() == published ? Optional.empty() : Optional.of(kept);
    }

    /** {@code schema.table} as a publication's table list names it: with its column list, if it has one. */
    public String tableSpec(Connection connection, String schema, String table) throws SQLException {
        PGConnection pg = connection.unwrap(PGConnection.class);
        String name = pg.escapeIdentifier(schema) + "." + pg.escapeIdentifier(table);
        Optional<List<String>> columns = of(connection, schema, table);
        if (columns.isEmpty()) {
            return name;
        }
        List<String> quoted = new ArrayList<>(columns.get().size());
        for (String column : columns.get()) {
            quoted.add(pg.escapeIdentifier(column));
        }
        return name + " (" + String.join(", ", quoted) + ")";
    }
}
