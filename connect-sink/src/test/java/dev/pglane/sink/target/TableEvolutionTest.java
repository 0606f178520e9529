package dev.pglane.sink.target;

import static dev.pglane.sink.apply.SourceTable.column;
import static dev.pglane.sink.apply.SourceTable.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.database.SqlStateClass;
import dev.pglane.connect.logging.LogCapture;
import dev.pglane.sink.apply.SourceTable;
import dev.pglane.sink.apply.TargetServer;
import dev.pglane.sink.apply.TestTransaction;
import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** auto.create and auto.evolve against a real PostgreSQL, and the errors when they are off. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TableEvolutionTest {
    private static final int NUMERIC_10_2 = (10 << 16 | 2) + 4;

    @RegisterExtension
    static final TargetServer server = new TargetServer();

    private static SourceTable orders(String table) {
        return SourceTable.of(
                "sales",
                table,
                key("id", PgType.INT8),
                key("region", PgType.TEXT),
                column("amount", PgType.NUMERIC, NUMERIC_10_2),
                new Column("tags", PgColumnType.of(PgType.INT4.arrayOid(), -1), false),
                column("placed_at", PgType.TIMESTAMPTZ),
                column("note", PgType.VARCHAR, 24 + 4));
    }

    private static TableEvolution evolution(boolean autoCreate, boolean autoEvolve) {
        return new TableEvolution(autoCreate, autoEvolve, new TargetTypes(server.endpoint(), "evolution-test"));
    }

    private static ChangeRecord recordOf(SourceTable table) {
        return new TestTransaction(5, Lsn.parse("0/5000"))
                .insert(table, table.row())
                .first();
    }

    private static boolean ensure(TableEvolution evolution, SourceTable source, TableName target) throws SQLException {
        TargetCatalog catalog = new TargetCatalog(server.endpoint(), "evolution-test");
        try (Connection connection = server.connect()) {
            connection.setAutoCommit(false);
            boolean ran =
                    evolution.ensure(connection, target, catalog.lookup(target), source.rowSchema(), recordOf(source));
            connection.commit();
            return ran;
        }
    }

    private static TargetTable read(TableName name) {
        return new TargetCatalog(server.endpoint(), "evolution-test")
                .lookup(name)
                .orElseThrow();
    }

    @Test
    void autoCreateBuildsTheTableFromTheRowSchemaWithItsKeyInANewSchema() throws SQLException {
        TableName name = new TableName("sales", "orders");
        assertTrue(ensure(evolution(true, false), orders("orders"), name));

        TargetTable table = read(name);
        assertEquals(
                List.of(
                        new TargetColumn("id", "bigint", false),
                        new TargetColumn("region", "text", false),
                        new TargetColumn("amount", "numeric(10,2)", false),
                        new TargetColumn("tags", "integer[]", false),
                        new TargetColumn("placed_at", "timestamp with time zone", false),
                        new TargetColumn("note", "character varying(24)", false)),
                table.columns());
        assertEquals(List.of("id", "region"), table.primaryKey());
        assertEquals(
                List.of("id", "region"),
                server.rows("SELECT attname FROM pg_attribute WHERE attrelid = 'sales.orders'::regclass"
                        + " AND attnum > 0 AND attnotnull ORDER BY attnum"),
                "NOT NULL only on key columns");
        assertFalse(ensure(evolution(true, false), orders("orders"), name), "nothing left to do");
    }

    @Test
    void autoCreateOfAReplicaIdentityFullTableMakesNoPrimaryKey() throws SQLException {
        SourceTable full = SourceTable.of("public", "full_rows", key("a", PgType.INT4), key("doc", PgType.JSON));
        TableName name = new TableName("public", "full_rows");
        assertTrue(ensure(evolution(true, false), full, name));
        assertEquals(List.of(), read(name).primaryKey());
    }

    @Test
    void autoEvolveAddsMissingColumns() throws SQLException {
        server.execute("CREATE TABLE public.evolving (id bigint PRIMARY KEY, region text)");
        TableName name = new TableName("public", "evolving");
        assertTrue(ensure(evolution(false, true), orders("evolving"), name));
        assertEquals(
                List.of("id", "region", "amount", "tags", "placed_at", "note"),
                read(name).columns().stream().map(TargetColumn::name).toList());
        assertEquals("numeric(10,2)", read(name).column("amount").orElseThrow().type());
    }

    /**
     * pgbench -i creates its tables, loads them, then adds their keys: a sink that created the table from the first
     * rows made it keyless. The source's key arrives with the next rows; auto.evolve adds it, once.
     */
    @Test
    void autoEvolveGivesAKeylessTargetTheKeyTheSourceGainedLater() throws SQLException {
        String ddl = " (id bigint, region text, amount numeric(10,2), tags integer[], placed_at timestamptz,"
                + " note varchar(24))";
        server.execute(
                "CREATE SCHEMA IF NOT EXISTS sales",
                "CREATE TABLE sales.keyless_later" + ddl,
                "INSERT INTO sales.keyless_later (id, region) VALUES (1, 'eu')");
        TableName name = new TableName("sales", "keyless_later");
        try (LogCapture log = LogCapture.start()) {
            assertTrue(ensure(evolution(false, true), orders("keyless_later"), name));
            assertEquals(List.of("id", "region"), read(name).primaryKey());
            assertFalse(ensure(evolution(false, true), orders("keyless_later"), name), "once");
            assertTrue(
                    log.lines().stream()
                            .anyMatch(l -> l.startsWith("INFO ")
                                    && l.contains("Gave sales.keyless_later the key its source table has")
                                    && l.contains("ADD PRIMARY KEY (\"id\", \"region\")")),
                    () -> String.join("\n", log.lines()));
        }
    }

    /** Without auto.evolve, or when the target's rows do not allow the key, a WARN names the statement to run. */
    @Test
    void aKeyTheSinkMayNotOrCannotAddIsWarnedOfOncePerTable() throws SQLException {
        String ddl = " (id bigint, region text, amount numeric(10,2), tags integer[], placed_at timestamptz,"
                + " note varchar(24))";
        server.execute(
                "CREATE SCHEMA IF NOT EXISTS sales",
                "CREATE TABLE sales.keyless_off" + ddl,
                "CREATE TABLE sales.keyless_twice" + ddl,
                "INSERT INTO sales.keyless_twice (id, region) VALUES (1, 'eu'), (1, 'eu')");
        try (LogCapture log = LogCapture.start()) {
            TableEvolution off = evolution(false, false);
            TableName offName = new TableName("sales", "keyless_off");
            assertFalse(ensure(off, orders("keyless_off"), offName));
            assertFalse(ensure(off, orders("keyless_off"), offName));
            TableName twice = new TableName("sales", "keyless_twice");
            assertFalse(ensure(evolution(false, true), orders("keyless_twice"), twice));
            assertEquals(List.of(), read(offName).primaryKey());
            assertEquals(List.of(), read(twice).primaryKey());
            List<String> warned =
                    log.lines().stream().filter(l -> l.startsWith("WARN ")).toList();
            assertEquals(2, warned.size(), () -> String.join("\n", log.lines()));
            assertTrue(
                    warned.get(0)
                                    .contains("Target table sales.keyless_off has no primary key or unique index, but"
                                            + " the source keys its rows by (id, region)")
                            && warned.get(0)
                                    .contains("run ALTER TABLE \"sales\".\"keyless_off\" ADD PRIMARY KEY"
                                            + " (\"id\", \"region\"), or set auto.evolve=true"),
                    warned::toString);
            assertTrue(warned.get(1).contains("auto.evolve could not add the key"), warned::toString);
        }
    }

    @Test
    void missingTableWithoutAutoCreateNamesTableRecordAndSetting() {
        TableName name = new TableName("public", "absent");
        ConnectException e =
                assertThrows(ConnectException.class, () -> ensure(evolution(false, true), orders("absent"), name));
        assertTrue(e.getMessage().contains("public.absent"), e.getMessage());
        assertTrue(e.getMessage().contains("auto.create"), e.getMessage());
        assertTrue(e.getMessage().contains("src.sales.absent-0@101"), e.getMessage());
    }

    @Test
    void missingColumnWithoutAutoEvolveNamesColumnsRecordAndSetting() throws SQLException {
        server.execute("CREATE TABLE public.narrow (id bigint PRIMARY KEY, region text, amount numeric)");
        TableName name = new TableName("public", "narrow");
        ConnectException e =
                assertThrows(ConnectException.class, () -> ensure(evolution(true, false), orders("narrow"), name));
        assertTrue(e.getMessage().contains("public.narrow lacks column(s) tags, placed_at, note"), e.getMessage());
        assertTrue(e.getMessage().contains("auto.evolve"), e.getMessage());
        assertTrue(e.getMessage().contains("src.sales.narrow-0@101"), e.getMessage());
    }

    @Test
    void truncateOfAMissingTableIsANoOpOnlyUnderAutoCreate() {
        TableName name = new TableName("public", "never_created");
        ChangeRecord record = recordOf(orders("never_created"));
        assertFalse(evolution(true, false).truncatable(name, Optional.empty(), record));
        assertThrows(ConnectException.class, () -> evolution(false, false).truncatable(name, Optional.empty(), record));
    }

    /** A source table whose one column claims the type text {@code text}: what a writer of the topic can send. */
    private static SourceTable claiming(String table, String text) {
        return SourceTable.of(
                "public",
                table,
                key("id", PgType.INT4),
                new Column("payload", PgColumnType.named(16_384, "payload", -1, text), false));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "int); DROP TABLE public.victim; --",
                "text); COPY (SELECT 1) TO PROGRAM 'touch /tmp/pglane-type-injection'; --",
                "int, evil int GENERATED ALWAYS AS (pg_catalog.pg_terminate_backend(1)) STORED"
            })
    void aTypeTextThatIsNotATypeIsRefusedAndNothingRuns(String text) throws SQLException {
        server.execute("CREATE TABLE IF NOT EXISTS public.victim (id int)");
        TableName name = new TableName("public", "hostile");
        ConnectException e = assertThrows(
                ConnectException.class, () -> ensure(evolution(true, true), claiming("hostile", text), name));

        assertTrue(e.getMessage().startsWith("Refused record src.public.hostile-0@101"), e.getMessage());
        assertTrue(e.getMessage().contains("column payload has type text '" + text + "'"), e.getMessage());
        assertTrue(e.getMessage().contains("nothing was executed"), e.getMessage());
        assertEquals(
                List.of("victim"), server.rows("SELECT relname FROM pg_class WHERE relname IN ('victim', 'hostile')"));
        assertFalse(Files.exists(Path.of("/tmp/pglane-type-injection")));
    }

    @Test
    void aTypeTheTargetLacksIsRefusedNamingIt() {
        TableName name = new TableName("public", "unknown_type");
        ConnectException e = assertThrows(
                ConnectException.class,
                () -> ensure(evolution(true, false), claiming("unknown_type", "public.no_such_type"), name));
        assertTrue(e.getMessage().contains("'public.no_such_type'"), e.getMessage());
        assertTrue(e.getMessage().contains("the target has no such type"), e.getMessage());
    }

    @Test
    void theColumnGetsTheTypeAsTheTargetFormatsIt() throws SQLException {
        server.execute("CREATE SCHEMA IF NOT EXISTS kinds", "CREATE TYPE kinds.\"Mood\" AS ENUM ('ok', 'sad')");
        TableName name = new TableName("public", "formatted");
        // written the way a record may legitimately spell it, not as format_type would
        assertTrue(ensure(evolution(true, false), claiming("formatted", "kinds.\"Mood\"[]"), name));
        assertEquals(
                "kinds.\"Mood\"[]", read(name).column("payload").orElseThrow().type());
    }

    /** Inside an apply worker a lost connection must read as one: the worker retries it instead of failing. */
    @Test
    void aTargetThatCannotBeReachedFailsTheLookupAsALostConnection() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        DatabaseEndpoint endpoint = server.endpoint();
        TargetTypes unreachable = new TargetTypes(
                new DatabaseEndpoint(
                        endpoint.host(),
                        closed,
                        endpoint.database(),
                        endpoint.user(),
                        null,
                        endpoint.tls(),
                        Duration.ofSeconds(2)),
                "evolution-test");
        SQLException e = assertThrows(SQLException.class, () -> unreachable.resolve("integer", null));
        assertEquals(SqlStateClass.CONNECTION, SqlStateClass.of(e), e::getMessage);
    }
}
