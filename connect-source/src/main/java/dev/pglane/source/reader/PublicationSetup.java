package dev.pglane.source.reader;

import dev.pglane.source.ColumnSettings;
import dev.pglane.source.DatabaseTables;
import dev.pglane.source.PgSourceConfig;
import dev.pglane.source.TableFilter;
import dev.pglane.source.cleanup.SourceCleanup;
import dev.pglane.source.columns.PublishedColumns;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.errors.ConnectException;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the publication when it is absent and {@code publication.create} allows it: FOR ALL TABLES
 * without table lists, else FOR TABLE with the tables the lists select now, and with {@code
 * publish_via_partition_root} as {@code publication.via.partition.root} says. An existing publication is never
 * altered, since other consumers may rely on it (validation reports a mismatch). One it creates carries a comment by
 * which {@link SourceCleanup} knows it may drop it, and the table watch that it may add tables to it.
 */
public final class PublicationSetup {
    private static final Logger log = LoggerFactory.getLogger(PublicationSetup.class);
    private static final String DUPLICATE_OBJECT = "42710";
    /** The comment pglane puts on a publication it creates: what lets it alter or drop only its own. */
    private static final String MARK = "created by pglane: dropped with its slot by SourceCleanup";

    private PublicationSetup() {}

    /** {@link #ensure(Connection, String, boolean, TableFilter, boolean, PublishedColumns)} as {@code config} says. */
    public static void ensure(Connection connection, PgSourceConfig config) throws SQLException {
        ensure(
                connection,
                config.publicationName(),
                config.publicationCreate(),
                config.tableFilter(),
                config.publicationViaRoot(),
                ColumnSettings.publishedColumns(config));
    }

    /**
     * @param viaRoot create it {@code WITH (publish_via_partition_root)}; an existing one that differs is named in a
     *     WARN
     * @param columns the column list each table gets in a publication created here
     * @throws ConnectException if the publication is missing and may not be created, or would be empty
     */
    public static void ensure(
            Connection connection,
            String publication,
            boolean create,
            TableFilter filter,
            boolean viaRoot,
            PublishedColumns columns)
            throws SQLException {
        Boolean existingViaRoot = viaRoot(connection, publication);
        if (existingViaRoot != null) {
            if (existingViaRoot != viaRoot && publishesPartitions(connection, publication)) {
                log.warn(
                        "Publication {} has publish_via_partition_root = {}, {} = {}: it is used as it is, so a"
                                + " partitioned table's changes are {}",
                        publication,
                        existingViaRoot,
                        PgSourceConfig.PUBLICATION_VIA_ROOT,
                        viaRoot,
                        existingViaRoot ? "its root table's" : "those of each partition, under the partition's name");
            }
            return;
        }
        if (!create) {
            throw new ConnectException("Publication '" + publication + "' does not exist and "
                    + PgSourceConfig.PUBLICATION_CREATE + " is false; create it first");
        }
        if (columns.enabled() && (filter.capturesAll() || !PublishedColumns.supported(connection))) {
            log.warn(
                    "publication.column.lists needs table lists and PostgreSQL 15 or later: publication {} publishes"
                            + " every column, and the columns the rules keep out reach the connector, which drops them",
                    publication);
        }
        PGConnection pg = connection.unwrap(PGConnection.class);
        String target =
                (filter.capturesAll() ? "FOR ALL TABLES" : "FOR TABLE " + tableList(connection, filter, columns))
                        + " WITH (publish_via_partition_root = " + viaRoot + ")";
        String name = pg.escapeIdentifier(publication);
        try (Statement st = connection.createStatement()) {
            // one round trip, one implicit transaction: the mark that lets SourceCleanup drop it comes with it
            st.execute("CREATE PUBLICATION " + name + " " + target + "; COMMENT ON PUBLICATION " + name + " IS '"
                    + pg.escapeLiteral(MARK) + "'");
            log.info("Created publication {} {}", publication, target);
        } catch (SQLException e) {
            if (!DUPLICATE_OBJECT.equals(e.getSQLState())) {
                throw e;
            }
        }
    }

    /** Whether pglane created {@code publication} (its comment is pglane's mark); false also when it does not exist. */
    public static boolean createdByPglane(Connection connection, String publication) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("SELECT pg_catalog.obj_description(oid,"
                + " 'pg_publication') FROM pg_catalog.pg_publication WHERE pubname = ?")) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && MARK.equals(rs.getString(1));
            }
        }
    }

    /** Whether the publication holds a partitioned table: its root, or partitions of it. */
    private static boolean publishesPartitions(Connection connection, String publication) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("SELECT EXISTS (SELECT 1"
                + " FROM pg_catalog.pg_publication_tables pt"
                + " JOIN pg_catalog.pg_namespace n ON n.nspname OPERATOR(pg_catalog.=) pt.schemaname"
                + " JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) n.oid"
                + " AND c.relname OPERATOR(pg_catalog.=) pt.tablename"
                + " WHERE pt.pubname OPERATOR(pg_catalog.=) ? AND (c.relkind OPERATOR(pg_catalog.=) 'p'"
                + " OR c.relispartition))")) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /** The publication's {@code publish_via_partition_root}, or {@code null} if it does not exist. */
    private static Boolean viaRoot(Connection connection, String publication) throws SQLException {
        try (PreparedStatement st =
                connection.prepareStatement("SELECT pubviaroot FROM pg_catalog.pg_publication WHERE pubname = ?")) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getBoolean(1) : null;
            }
        }
    }

    private static String tableList(Connection connection, TableFilter filter, PublishedColumns columns)
            throws SQLException {
        List<DatabaseTables.Table> tables = filter.captured(DatabaseTables.publishable(connection));
        if (tables.isEmpty()) {
            throw new ConnectException("The table lists select no table, so there is nothing to publish");
        }
        List<String> specs = new ArrayList<>(tables.size());
        for (DatabaseTables.Table table : tables) {
            specs.add(columns.tableSpec(connection, table.schema(), table.table()));
        }
        return String.join(", ", specs);
    }
}
