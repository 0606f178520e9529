package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.source.PgSourceConfig;
import dev.pglane.source.TableFilter;
import dev.pglane.source.columns.PublishedColumns;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Publication set-up against a real PostgreSQL. */
class PublicationSetupTest {
    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws IOException, SQLException {
        server = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .start();
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE public.a (id int PRIMARY KEY)");
            st.execute("CREATE TABLE public.b (id int PRIMARY KEY)");
            st.execute("CREATE TABLE public.\"Mixed Case\" (id int PRIMARY KEY)");
            st.execute("CREATE PUBLICATION theirs FOR TABLE public.b");
            st.execute("CREATE TABLE public.parts (region text, id int, PRIMARY KEY (region, id))"
                    + " PARTITION BY LIST (region)");
            st.execute("CREATE TABLE public.parts_eu PARTITION OF public.parts FOR VALUES IN ('eu')");
            st.execute("CREATE TABLE public.parts_us PARTITION OF public.parts FOR VALUES IN ('us')");
        }
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    private static TableFilter filter(String include) {
        return PgSourceConfig.tableFilter(key -> key.equals(PgSourceConfig.TABLE_INCLUDE_LIST)
                ? (include.isEmpty() ? List.of() : List.of(include.split(",")))
                : List.of());
    }

    private static Set<String> published(Connection c, String publication) throws SQLException {
        Set<String> tables = new HashSet<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT schemaname || '.' || tablename FROM pg_publication_tables"
                        + " WHERE pubname = '" + publication + "'")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        return tables;
    }

    @Test
    void createsForTheTablesTheListSelectsQuotingTheirNames() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection()) {
            PublicationSetup.ensure(
                    c, "mine", true, filter("public\\.a,public\\.Mixed Case"), true, PublishedColumns.ALL);
            assertEquals(Set.of("public.a", "public.Mixed Case"), published(c, "mine"));
        }
    }

    @Test
    void createsForAllTablesWithoutLists() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            PublicationSetup.ensure(c, "everything", true, filter(""), true, PublishedColumns.ALL);
            try (ResultSet rs =
                    st.executeQuery("SELECT puballtables FROM pg_publication WHERE pubname = 'everything'")) {
                assertTrue(rs.next() && rs.getBoolean(1));
            }
        }
    }

    @Test
    void publishesAPartitionedTableAsItsRootOrAsItsPartitions() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection()) {
            PublicationSetup.ensure(c, "roots", true, filter("public\\.parts"), true, PublishedColumns.ALL);
            assertEquals(Set.of("public.parts"), published(c, "roots"));
            PublicationSetup.ensure(c, "leaves", true, filter("public\\.parts"), false, PublishedColumns.ALL);
            assertEquals(Set.of("public.parts_eu", "public.parts_us"), published(c, "leaves"));
        }
    }

    @Test
    void anExistingPublicationOfAPartitionedTableWithTheOtherSettingIsNamedInAWarning() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement();
                LogCapture logs = LogCapture.start()) {
            st.execute("CREATE PUBLICATION their_parts FOR TABLE public.parts");
            PublicationSetup.ensure(c, "their_parts", true, filter("public\\.parts"), true, PublishedColumns.ALL);
            PublicationSetup.ensure(c, "theirs", true, filter("public\\.b"), true, PublishedColumns.ALL);
            List<String> warnings = logs.warnings();
            assertEquals(1, warnings.size(), "only the publication with a partitioned table: " + warnings);
            assertTrue(
                    warnings.get(0)
                            .contains("Publication their_parts has publish_via_partition_root = false,"
                                    + " publication.via.partition.root = true"),
                    warnings.get(0));
            assertEquals(Set.of("public.parts_eu", "public.parts_us"), published(c, "their_parts"), "left as it is");
        }
    }

    @Test
    void leavesAnExistingPublicationAsItIs() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection()) {
            PublicationSetup.ensure(c, "theirs", true, filter("public\\.a"), true, PublishedColumns.ALL);
            assertEquals(Set.of("public.b"), published(c, "theirs"));
        }
    }

    @Test
    void aMissingPublicationThatMayNotBeCreatedOrWouldBeEmptyIsAnError() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection()) {
            ConnectException notAllowed = assertThrows(
                    ConnectException.class,
                    () -> PublicationSetup.ensure(c, "absent", false, filter(""), true, PublishedColumns.ALL));
            assertTrue(notAllowed.getMessage().contains("publication.create is false"), notAllowed.getMessage());
            ConnectException empty = assertThrows(
                    ConnectException.class,
                    () -> PublicationSetup.ensure(
                            c, "absent", true, filter("nothing\\.here"), true, PublishedColumns.ALL));
            assertTrue(empty.getMessage().contains("select no table"), empty.getMessage());
        }
    }
}
