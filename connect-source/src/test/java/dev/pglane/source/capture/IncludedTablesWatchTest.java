package dev.pglane.source.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.source.DatabaseTables;
import dev.pglane.source.PgSourceConfig;
import dev.pglane.source.TableFilter;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.reader.PublicationSetup;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
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
        return new IncludedTablesWatch(
                "included-test",
                publication,
                filter,
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
            PublicationSetup.ensure(c, "shop_pub", true, filter, true);
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
}
