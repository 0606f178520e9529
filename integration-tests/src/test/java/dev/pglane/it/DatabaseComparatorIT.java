package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.verify.DatabaseComparator;
import dev.pglane.local.verify.TableComparison;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a copy, a user asks whether the target holds exactly the source's rows, and if not, where it first
 * differs. Two real servers of {@code pglane.pg.version}; each test starts from empty databases.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DatabaseComparatorIT {
    private static final String TYPED_TABLE = "CREATE TABLE public.typed (id bigint PRIMARY KEY, amount numeric(12,3),"
            + " ratio double precision, flag boolean, note text, at timestamptz, day date, doc jsonb, tags text[],"
            + " ref uuid, raw bytea, span interval)";
    private static final String TYPED_ROWS = "INSERT INTO public.typed VALUES"
            + " (1, 12.5, 0.1, true, 'plain', '2024-02-29 23:59:59.123456+02', '2024-02-29', '{\"a\": [1, 2]}',"
            + " '{x,y}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\x00ff', '1 day 2 hours'),"
            + " (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
            + " (3, -0.001, 1e300, false, E'two\\nlines, \"quoted\" and \\\\ backslash', 'infinity', '0001-01-01',"
            + " 'null', '{}', NULL, '', '-3 mons'),"
            + " (4, 0, 'NaN', true, 'emoji \uD83D\uDE80 and accents \u00e9\u00e8', '1999-12-31 23:59:60', NULL, '[]', '{NULL}', NULL,"
            + " NULL, NULL)";
    private static final String UNKEYED = "CREATE TABLE public.events (kind text, payload text);"
            + " INSERT INTO public.events VALUES ('a', 'x'), ('a', 'x'), (NULL, NULL), ('\uD83D\uDE80', 'rocket'),"
            + " ('\uFFFD', 'replacement'), ('b', E'multi\\nline')";

    @TempDir
    static Path workDir;

    static DatabasePair servers;

    @BeforeAll
    static void startServers() {
        servers = DatabasePair.start(PostgresVersion.fromProperty(), workDir);
    }

    @AfterAll
    static void stopServers() {
        if (servers != null) {
            servers.close();
        }
    }

    @BeforeEach
    void emptyDatabases() throws SQLException {
        String reset = "DROP PUBLICATION IF EXISTS pglane_it; DROP SCHEMA IF EXISTS public, other CASCADE;"
                + " CREATE SCHEMA public";
        onBoth(reset);
    }

    @Test
    @DisplayName("identical tables, with and without a primary key, of many types, compare equal")
    void identicalTablesAreEqual() throws SQLException {
        onBoth(TYPED_TABLE + "; " + TYPED_ROWS + "; " + UNKEYED);
        onBoth("CREATE TABLE public.pairs (a int, b text, c int, PRIMARY KEY (b, a));"
                + " INSERT INTO public.pairs SELECT i % 7, 'k' || (i % 13), i FROM generate_series(1, 91) i");

        ComparisonReport report = compare();

        assertTrue(report.isEqual(), report::summary);
        assertEquals(
                List.of("public.events", "public.pairs", "public.typed"),
                report.tables().stream().map(TableComparison::table).toList());
        assertEquals(91, report.tables().get(1).sourceRows());
    }

    @Test
    @DisplayName("a changed row is named by the first differing key, with both rows")
    void changedRowIsNamed() throws SQLException {
        onBoth("CREATE TABLE public.items (id int PRIMARY KEY, name text);"
                + " INSERT INTO public.items SELECT i, 'item ' || i FROM generate_series(1, 5000) i");
        on(servers.target(), "UPDATE public.items SET name = 'changed' WHERE id IN (4242, 4711)");

        ComparisonReport report = compare();

        assertFalse(report.isEqual());
        TableComparison items = report.differences().get(0);
        assertEquals(List.of("4242"), items.firstDifference().key());
        assertEquals(
                "public.items: DIFFERENT - source 5000 rows, target 5000 rows; first differing key id=4242:"
                        + " source (4242,\"item 4242\"), target (4242,changed)",
                items.describe());
    }

    @Test
    @DisplayName("a row missing on the target shows in the counts and as the first differing key")
    void missingRowChangesTheCounts() throws SQLException {
        onBoth(UNKEYED + "; " + TYPED_TABLE + "; " + TYPED_ROWS);
        // U+FFFD sorts before U+1F680 in code point (and UTF-8 byte) order, though not in UTF-16 order
        on(servers.target(), "DELETE FROM public.typed WHERE id = 3; DELETE FROM public.events WHERE kind = '\uFFFD'");

        ComparisonReport report = compare();

        TableComparison events = report.tables().get(0);
        assertEquals(6, events.sourceRows());
        assertEquals(5, events.targetRows());
        assertEquals("(\uFFFD,replacement)", events.firstDifference().sourceRow());
        assertNull(events.firstDifference().targetRow());
        TableComparison typed = report.tables().get(1);
        assertEquals(List.of("3"), typed.firstDifference().key());
        assertTrue(report.summary().endsWith("2 of 2 tables differ"), report::summary);
    }

    @Test
    @DisplayName("a table the target lacks, or a column it lacks, is reported rather than failing the comparison")
    void missingTableAndColumnAreReported() throws SQLException {
        on(servers.source(), "CREATE TABLE public.gone (id int PRIMARY KEY); INSERT INTO public.gone VALUES (1), (2)");
        on(
                servers.source(),
                "CREATE TABLE public.wide (id int PRIMARY KEY, extra text); INSERT INTO public.wide VALUES (1, 'x')");
        on(servers.target(), "CREATE TABLE public.wide (id int PRIMARY KEY); INSERT INTO public.wide VALUES (1)");

        ComparisonReport report = compare();

        assertEquals(
                "public.gone: MISSING on target (source 2 rows)",
                report.tables().get(0).describe());
        String wide = report.tables().get(1).describe();
        assertTrue(wide.startsWith("public.wide: cannot compare - ") && wide.contains("extra"), wide);
    }

    @Test
    @DisplayName("with a publication, only the schemas holding published tables are compared")
    void publishedSchemasOnly() throws SQLException {
        onBoth("CREATE SCHEMA other; CREATE TABLE public.shipped (id int PRIMARY KEY); CREATE TABLE public.sibling (id"
                + " int); CREATE TABLE other.unshipped (id int)");
        on(
                servers.source(),
                "CREATE PUBLICATION pglane_it FOR TABLE public.shipped;" + " INSERT INTO other.unshipped VALUES (1)");

        ComparisonReport report = compare();

        assertTrue(report.isEqual(), report::summary);
        assertEquals(
                List.of("public.shipped", "public.sibling"),
                report.tables().stream().map(TableComparison::table).toList());
    }

    private static ComparisonReport compare() throws SQLException {
        return new DatabaseComparator(
                        servers.source().jdbcUrl(), servers.target().jdbcUrl())
                .compare();
    }

    private static void onBoth(String sql) throws SQLException {
        on(servers.source(), sql);
        on(servers.target(), sql);
    }

    private static void on(PostgresNode node, String sql) throws SQLException {
        try (Connection connection = node.open();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
