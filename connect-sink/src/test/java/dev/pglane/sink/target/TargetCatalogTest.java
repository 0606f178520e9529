package dev.pglane.sink.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.apply.TargetServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The catalog read from a real PostgreSQL: columns, keys, foreign keys; cached until invalidated. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TargetCatalogTest {
    @RegisterExtension
    static final TargetServer server = new TargetServer(
            "CREATE SCHEMA \"Shop\"",
            "CREATE TABLE \"Shop\".parent (id int, region text, PRIMARY KEY (region, id))",
            "CREATE TABLE \"Shop\".\"Child Rows\" (id bigint PRIMARY KEY, gone int, parent_region text,"
                    + " parent_id int, code text, tenant int, amount numeric(10,2), tags text[],"
                    + " doubled bigint GENERATED ALWAYS AS (id * 2) STORED,"
                    + " FOREIGN KEY (parent_region, parent_id) REFERENCES \"Shop\".parent (region, id))",
            "ALTER TABLE \"Shop\".\"Child Rows\" DROP COLUMN gone",
            "CREATE UNIQUE INDEX ON \"Shop\".\"Child Rows\" (tenant, code) INCLUDE (amount)",
            "CREATE UNIQUE INDEX ON \"Shop\".\"Child Rows\" (lower(code))",
            "CREATE UNIQUE INDEX ON \"Shop\".\"Child Rows\" (code) WHERE tenant = 0",
            "CREATE TABLE public.plain (a int, b text)",
            "CREATE TABLE public.unique_only (a int NOT NULL, b text, UNIQUE (b))",
            "CREATE VIEW public.a_view AS SELECT 1 AS one");

    private static TargetCatalog catalog() {
        return new TargetCatalog(server.endpoint(), "catalog-test");
    }

    @Test
    void readsColumnsInOrderWithTypesAndGeneratedFlag() {
        TargetTable table =
                catalog().lookup(new TableName("Shop", "Child Rows")).orElseThrow();
        assertEquals(
                List.of(
                        new TargetColumn("id", "bigint", false),
                        new TargetColumn("parent_region", "text", false),
                        new TargetColumn("parent_id", "integer", false),
                        new TargetColumn("code", "text", false),
                        new TargetColumn("tenant", "integer", false),
                        new TargetColumn("amount", "numeric(10,2)", false),
                        new TargetColumn("tags", "text[]", false),
                        new TargetColumn("doubled", "bigint", true)),
                table.columns());
    }

    @Test
    void readsPrimaryKeyUniqueKeysWithoutExpressionsOrPredicatesAndForeignKeys() {
        TargetTable child =
                catalog().lookup(new TableName("Shop", "Child Rows")).orElseThrow();
        assertEquals(List.of("id"), child.primaryKey());
        assertEquals(List.of(List.of("tenant", "code")), child.uniqueKeys(), "INCLUDE columns are no key");
        assertEquals(
                List.of(new ForeignKey(
                        List.of("parent_region", "parent_id"),
                        new TableName("Shop", "parent"),
                        List.of("region", "id"))),
                child.foreignKeys());
        assertEquals(
                List.of("region", "id"),
                catalog().lookup(new TableName("Shop", "parent")).orElseThrow().primaryKey(),
                "key columns in index order");
    }

    @Test
    void identityKeyFallsBackToAUniqueKeyOrNothing() {
        TargetCatalog catalog = catalog();
        assertEquals(
                List.of("b"),
                catalog.lookup(new TableName("public", "unique_only"))
                        .orElseThrow()
                        .identityKey());
        TargetTable plain = catalog.lookup(new TableName("public", "plain")).orElseThrow();
        assertEquals(List.of(), plain.identityKey());
        assertEquals(List.of(), plain.foreignKeys());
    }

    @Test
    void missingTablesAndViewsAreEmpty() {
        assertEquals(Optional.empty(), catalog().lookup(new TableName("public", "nowhere")));
        assertEquals(Optional.empty(), catalog().lookup(new TableName("public", "a_view")));
    }

    @Test
    void cachesUntilInvalidatedAndReadsThroughAGivenConnection() throws SQLException {
        server.execute("CREATE TABLE public.evolving (id int PRIMARY KEY)");
        TargetCatalog catalog = catalog();
        TableName name = new TableName("public", "evolving");
        TargetTable first = catalog.lookup(name).orElseThrow();
        server.execute("ALTER TABLE public.evolving ADD COLUMN note text");
        assertSame(first, catalog.lookup(name).orElseThrow(), "cached");

        catalog.invalidate(name);
        try (Connection connection = server.connect()) {
            connection.setAutoCommit(false);
            connection.createStatement().execute("ALTER TABLE public.evolving ADD COLUMN uncommitted int");
            TargetTable own = catalog.lookup(name, connection).orElseThrow();
            assertTrue(own.column("uncommitted").isPresent(), "the session's own DDL is visible to it");
            connection.rollback();
        }
        catalog.invalidate(name);
        TargetTable reread = catalog.lookup(name).orElseThrow();
        assertEquals(
                List.of("id", "note"),
                reread.columns().stream().map(TargetColumn::name).toList());
    }
}
