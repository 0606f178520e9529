package dev.pglane.source.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.source.DatabaseTables;
import dev.pglane.source.PgSourceConfig;
import dev.pglane.source.TableFilter;
import dev.pglane.source.columns.ColumnRules;
import dev.pglane.source.columns.PublishedColumns;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.reader.PublicationSetup;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables created after the publication that the table lists select, against a real server: added to a publication
 * pglane created, named in a WARN for one of one's own; tables the lists do not select are left alone.
 */
class IncludedTablesWatchTest {
    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws IOException {
        server = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .start();
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    private static TableFilter filter(String include) {
        return PgSourceConfig.tableFilter(
                key -> key.equals(PgSourceConfig.TABLE_INCLUDE_LIST) ? List.of(include) : List.of());
    }

    private static IncludedTablesWatch watch(String publication, TableFilter filter) {
        return watch(publication, filter, PublishedColumns.ALL);
    }

    private static IncludedTablesWatch watch(String publication, TableFilter filter, PublishedColumns columns) {
        return new IncludedTablesWatch(
                "included-test",
                publication,
                filter,
                columns,
                Duration.ofHours(1),
                name -> server.getPostgresDatabase().getConnection(),
                new FailureSlot());
    }

    @Test
    void aNewTableTheListsSelectJoinsThePublicationPglaneCreated() throws SQLException {
        TableFilter filter = filter("shop\\..*");
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                LogCapture log = LogCapture.start()) {
            st.execute("CREATE SCHEMA shop");
            st.execute("CREATE SCHEMA other");
            st.execute("CREATE TABLE shop.orders (id int PRIMARY KEY)");
            PublicationSetup.ensure(c, "shop_pub", true, filter, true, PublishedColumns.ALL);
            st.execute("CREATE TABLE shop.lines (id int PRIMARY KEY)");
            st.execute("CREATE TABLE other.notes (id int PRIMARY KEY)");

            watch("shop_pub", filter).check(c);
            assertEquals(Set.of("shop.orders", "shop.lines"), DatabaseTables.published(c, "shop_pub"));
            assertTrue(
                    log.lines().stream().anyMatch(l -> l.contains("added shop.lines to publication shop_pub")),
                    log.lines()::toString);
            assertEquals(List.of(), log.warnings());
        }
    }

    @Test
    void aPublicationOfOnesOwnIsLeftAndTheTableNamedInAWarn() throws SQLException {
        TableFilter filter = filter("mine\\..*");
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                LogCapture log = LogCapture.start()) {
            st.execute("CREATE SCHEMA mine");
            st.execute("CREATE TABLE mine.first (id int PRIMARY KEY)");
            st.execute("CREATE PUBLICATION mine_pub FOR TABLE mine.first");
            st.execute("CREATE TABLE mine.second (id int PRIMARY KEY)");

            IncludedTablesWatch watch = watch("mine_pub", filter);
            watch.check(c);
            watch.check(c);
            assertEquals(Set.of("mine.first"), DatabaseTables.published(c, "mine_pub"));
            List<String> warnings = log.warnings();
            assertEquals(1, warnings.size(), "once per set of tables: " + warnings);
            assertTrue(warnings.get(0).contains("tables [mine.second] match the table lists"), warnings.get(0));
            assertTrue(warnings.get(0).contains("pglane did not create the publication"), warnings.get(0));
        }
    }

    @Test
    void excludedColumnsAreNotPublishedAndAColumnAddedLaterJoinsTheListNamedInAWarn() throws SQLException {
        TableFilter filter = filter("pii\\..*");
        // the rules would take the key too: a publication of updates must carry it, so it stays
        PublishedColumns columns = new PublishedColumns(
                new ColumnRules(
                        List.of(), List.of("pii\\..*\\.ssn", "pii\\.people\\.id"), List.of(), List.of(), "", ""),
                true);
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                LogCapture log = LogCapture.start()) {
            assumeTrue(c.getMetaData().getDatabaseMajorVersion() >= 15, "column lists need PostgreSQL 15");
            st.execute("CREATE SCHEMA pii");
            st.execute("CREATE TABLE pii.people (id int PRIMARY KEY, name text, ssn text,"
                    + " shout text GENERATED ALWAYS AS (upper(name)) STORED)");
            st.execute("CREATE TABLE pii.everyone (id int, ssn text)");
            st.execute("ALTER TABLE pii.everyone REPLICA IDENTITY FULL");
            PublicationSetup.ensure(c, "pii_pub", true, filter, true, columns);
            assertEquals(List.of("id", "name"), publishedColumns(c, "people"));
            assertEquals(List.of("id", "ssn"), publishedColumns(c, "everyone"), "REPLICA IDENTITY FULL: every column");

            st.execute("ALTER TABLE pii.people ADD COLUMN email text");
            IncludedTablesWatch watch = watch("pii_pub", filter, columns);
            watch.check(c);
            assertEquals(List.of("id", "name", "email"), publishedColumns(c, "people"));
            watch.check(c);
            List<String> warnings = log.warnings();
            assertEquals(1, warnings.size(), "once, when the list is renewed: " + warnings);
            assertTrue(warnings.get(0).contains("columns [email] were not published"), warnings.get(0));
        }
    }

    private static List<String> publishedColumns(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT attnames FROM pg_publication_tables WHERE pubname = 'pii_pub'"
                        + " AND schemaname = 'pii' AND tablename = '" + table + "'")) {
            assertTrue(rs.next(), table + " is published");
            return List.of((String[]) rs.getArray(1).getArray());
        }
    }
}
