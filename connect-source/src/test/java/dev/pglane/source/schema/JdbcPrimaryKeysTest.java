package dev.pglane.source.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.source.values.PgTextServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Primary key columns read from a real catalog, in key order, through a session that searches pg_catalog only. */
class JdbcPrimaryKeysTest {

    private static PgTextServer server;
    private static Connection pinned;

    @BeforeAll
    static void start() throws SQLException {
        server = PgTextServer.start();
        server.execute(
                "CREATE TABLE composite (a int, b text, c int, PRIMARY KEY (c, a))",
                "CREATE TABLE \"Odd Name\" (\"Id\" int PRIMARY KEY, v text)",
                "CREATE TABLE nokey (v text)",
                "CREATE TABLE unique_only (id int NOT NULL UNIQUE)");
        pinned = server.connect("-c search_path=" + DatabaseEndpoint.PINNED_SEARCH_PATH);
    }

    @AfterAll
    static void stop() throws Exception {
        pinned.close();
        server.close();
    }

    private static int oid(String table) throws SQLException {
        try (PreparedStatement query = pinned.prepareStatement("SELECT ?::pg_catalog.regclass::pg_catalog.oid")) {
            query.setString(1, table);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return (int) row.getLong(1);
            }
        }
    }

    @Test
    void theColumnsComeInKeyOrderNotTableOrder() throws SQLException {
        assertEquals(List.of("c", "a"), new JdbcPrimaryKeys(pinned).apply(oid("public.composite")));
        assertEquals(List.of("Id"), new JdbcPrimaryKeys(pinned).apply(oid("public.\"Odd Name\"")));
    }

    @Test
    void aTableWithoutAPrimaryKeyHasNoKeyColumnsEvenWithAUniqueIndex() throws SQLException {
        assertEquals(List.of(), new JdbcPrimaryKeys(pinned).apply(oid("public.nokey")));
        assertEquals(List.of(), new JdbcPrimaryKeys(pinned).apply(oid("public.unique_only")));
        assertEquals(List.of(), new JdbcPrimaryKeys(pinned).apply(999_999_999), "a dropped table");
    }
}
