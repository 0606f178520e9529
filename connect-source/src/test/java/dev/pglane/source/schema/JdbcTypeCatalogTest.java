package dev.pglane.source.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.source.pgoutput.TypeMessage;
import dev.pglane.source.values.PgTextServer;
import dev.pglane.source.values.SessionSettings;
import dev.pglane.wire.types.ColumnSchemas;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.StringSemantics;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Type resolution against a real catalog: enums, domains, arrays of them, extension types, caching. */
class JdbcTypeCatalogTest {

    private static PgTextServer server;
    private static Connection pinned;

    @BeforeAll
    static void start() {
        server = PgTextServer.start();
        server.execute(
                "CREATE EXTENSION hstore",
                "CREATE EXTENSION citext",
                "CREATE EXTENSION ltree",
                "CREATE TYPE mood AS ENUM ('sad', 'happy')",
                "ALTER TYPE mood ADD VALUE 'ok' BEFORE 'happy'",
                "CREATE DOMAIN price AS numeric(10,2)",
                "CREATE DOMAIN positive_price AS price CHECK (VALUE > 0)",
                "CREATE DOMAIN tags AS text[]",
                "CREATE TYPE empty_enum AS ENUM ()");
        try {
            pinned = server.connect("-c search_path=" + DatabaseEndpoint.PINNED_SEARCH_PATH);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        pinned.close();
        server.close();
    }

    @Test
    void enumsWithTheirLabelsInSortOrder() {
        PgColumnType mood = catalog().resolve(oid("mood"), -1);
        assertEquals(List.of("sad", "ok", "happy"), mood.enumLabels());
        assertEquals("public.mood", mood.formatted(), "qualified: the search path names no user schema");
        Schema schema = ColumnSchemas.forColumn(mood, false, NumericMapping.PRECISE);
        assertEquals(StringSemantics.ENUM, schema.name());
        assertEquals("sad,ok,happy", schema.parameters().get(StringSemantics.ENUM_ALLOWED));
    }

    @Test
    void arraysOfEnumsAndOfDomains() {
        PgColumnType moods = catalog().resolve(oid("_mood"), -1);
        assertTrue(moods.isArray());
        assertEquals(List.of("sad", "ok", "happy"), moods.element().enumLabels());
        assertEquals("public.mood[]", moods.formatted());
        PgColumnType prices = catalog().resolve(oid("_price"), -1);
        assertEquals("price", prices.element().name());
        assertEquals(Schema.Type.BYTES, arraySchema(prices).valueSchema().type());
    }

    @Test
    void domainsResolveToTheirBaseWithTheBaseTypmod() {
        PgColumnType price = catalog().resolve(oid("price"), -1);
        assertTrue(price.isDomain());
        assertEquals(PgType.NUMERIC, price.resolved().builtin());
        assertEquals("numeric(10,2)", price.resolved().formatted());
        Schema schema = ColumnSchemas.forColumn(price, false, NumericMapping.PRECISE);
        assertEquals(Decimal.LOGICAL_NAME, schema.name());
        assertEquals("2", schema.parameters().get(Decimal.SCALE_FIELD));

        PgColumnType positive = catalog().resolve(oid("positive_price"), -1);
        assertEquals("price", positive.base().name());
        assertEquals("numeric(10,2)", positive.resolved().formatted());

        PgColumnType tags = catalog().resolve(oid("tags"), -1);
        assertTrue(tags.resolved().isArray());
        assertEquals(PgType.TEXT, tags.resolved().element().builtin());
    }

    @Test
    void extensionTypesAreDescribedByName() {
        PgColumnType hstore = catalog().resolve(oid("hstore"), -1);
        assertEquals("hstore", hstore.name());
        assertEquals(
                StringSemantics.JSON,
                ColumnSchemas.forColumn(hstore, false, NumericMapping.PRECISE).name());
        PgColumnType citext = catalog().resolve(oid("citext"), -1);
        assertEquals("public.citext", citext.formatted());
        assertEquals(
                Schema.Type.STRING,
                ColumnSchemas.forColumn(citext, false, NumericMapping.PRECISE).type());
        assertEquals(
                StringSemantics.LTREE,
                ColumnSchemas.forColumn(catalog().resolve(oid("ltree"), -1), false, NumericMapping.PRECISE)
                        .name());
        PgColumnType hstores = catalog().resolve(oid("_hstore"), -1);
        assertEquals("hstore", hstores.element().name());
    }

    @Test
    void builtInsAndCachedTypesNeedNoQuery() throws Exception {
        Connection closed = server.connect(SessionSettings.OPTIONS);
        JdbcTypeCatalog catalog = new JdbcTypeCatalog(closed);
        PgColumnType price = catalog.resolve(oid("price"), -1);
        closed.close();
        assertSame(price, catalog.resolve(oid("price"), -1), "cached by OID and typmod");
        assertEquals(
                "numeric(10,2)",
                catalog.resolve(PgType.NUMERIC.oid(), (10 << 16 | 2) + 4).formatted());
        assertEquals(
                "timestamp with time zone[]",
                catalog.resolve(PgType.TIMESTAMPTZ.arrayOid(), -1).formatted());
        RetriableException lost = assertThrows(RetriableException.class, () -> catalog.resolve(oid("mood"), -1));
        assertTrue(lost.getMessage().contains(Integer.toString(oid("mood"))), lost.getMessage());
    }

    @Test
    void anAnnouncedTypeIsReadAgain() throws Exception {
        server.execute("CREATE TYPE state AS ENUM ('new')");
        JdbcTypeCatalog catalog = catalog();
        int state = oid("state");
        PgColumnType before = catalog.resolve(state, -1);
        PgColumnType states = catalog.resolve(oid("_state"), -1);
        server.execute("ALTER TYPE state ADD VALUE 'done'");
        assertSame(before, catalog.resolve(state, -1));
        catalog.announced(new TypeMessage(0, state, "public", "state"));
        assertEquals(List.of("new", "done"), catalog.resolve(state, -1).enumLabels());
        assertEquals(
                List.of("new", "done"),
                catalog.resolve(oid("_state"), -1).element().enumLabels(),
                "the array over it is read again too");
        assertFalse(states == catalog.resolve(oid("_state"), -1));
    }

    @Test
    void aDroppedTypeFallsBackToItsTypeMessage() {
        server.execute("CREATE TYPE gone AS ENUM ('x')");
        int gone = oid("gone");
        server.execute("DROP TYPE gone");
        JdbcTypeCatalog catalog = catalog();
        IllegalStateException unknown = assertThrows(IllegalStateException.class, () -> catalog.resolve(gone, -1));
        assertTrue(unknown.getMessage().contains(Integer.toString(gone)), unknown.getMessage());
        catalog.announced(new TypeMessage(0, gone, "public", "gone"));
        PgColumnType named = catalog.resolve(gone, -1);
        assertEquals("\"public\".\"gone\"", named.formatted(), "quoted: the names are not checked");
        assertNull(named.builtin());
        assertEquals(
                Schema.Type.STRING,
                ColumnSchemas.forColumn(named, false, NumericMapping.PRECISE).type());
    }

    @Test
    void anEnumWithoutLabelsIsDescribedByName() {
        PgColumnType empty = catalog().resolve(oid("empty_enum"), -1);
        assertFalse(empty.isEnum());
        assertEquals("empty_enum", empty.name());
    }

    /** On a session whose search path is pinned, as every session of the source is. */
    private static JdbcTypeCatalog catalog() {
        return new JdbcTypeCatalog(pinned);
    }

    private static Schema arraySchema(PgColumnType type) {
        return ColumnSchemas.forColumn(type, false, NumericMapping.PRECISE);
    }

    private static int oid(String typeName) {
        try (Statement st = server.session().createStatement();
                ResultSet rs = st.executeQuery("SELECT '" + typeName + "'::regtype::oid")) {
            rs.next();
            return (int) rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
