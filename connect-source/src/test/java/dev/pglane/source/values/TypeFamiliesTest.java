package dev.pglane.source.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.pglane.source.pgoutput.PgOutputMessage;
import dev.pglane.source.pgoutput.TypeMessage;
import dev.pglane.source.schema.JdbcTypeCatalog;
import dev.pglane.source.schema.RelationDescriptor;
import dev.pglane.source.schema.RelationDescriptorFactory;
import dev.pglane.source.schema.RowKeyColumns;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.types.GeoPoint;
import dev.pglane.wire.types.StringSemantics;
import dev.pglane.wire.types.ValueMappings;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One column of every type family, through real pgoutput tuples, the real catalog and the row schema: each row
 * validates against its schema, and the families that travel as PostgreSQL text carry exactly the server's text.
 */
class TypeFamiliesTest {

    /** Column name → type and an interesting value; the families that travel as text, unchanged. */
    private static final Map<String, String[]> TEXT_FAMILIES = new LinkedHashMap<>();

    static {
        column("c_uuid", "uuid", "'a10f8c2e-7c64-4f5e-9f3b-1d2e3f4a5b6c'");
        column("c_json", "json", "'{\"b\": [1, 2.50], \"a\": null}'");
        column("c_jsonb", "jsonb", "'{\"b\": [1, 2.50], \"a\": null}'");
        column("c_xml", "xml", "'<a x=\"1\">t</a>'");
        column("c_char", "char(5)", "'ab'");
        column("c_varchar", "varchar(10)", "'ab '");
        column("c_name", "name", "'pg_class'");
        column("c_qchar", "\"char\"", "'x'");
        column("c_inet", "inet", "'10.0.0.1'");
        column("c_cidr", "cidr", "'10.1.0.0/16'");
        column("c_macaddr", "macaddr", "'08:00:2b:01:02:03'");
        column("c_macaddr8", "macaddr8", "'08:00:2b:01:02:03:04:05'");
        column("c_range", "int4range", "'[1,10)'");
        column("c_tsrange", "tstzrange", "'[2024-01-01 00:00+00,infinity)'");
        column("c_multirange", "int8multirange", "'{[1,3),[5,7)}'");
        column("c_tsvector", "tsvector", "'a fat cat'");
        column("c_tsquery", "tsquery", "'fat & cat'");
        column("c_lsn", "pg_lsn", "'16/B374D848'");
        column("c_box", "box", "'((0,0),(1,1))'");
        column("c_path", "path", "'[(0,0),(1,1),(2,0)]'");
        column("c_polygon", "polygon", "'((0,0),(1,1),(1,0))'");
        column("c_circle", "circle", "'<(0,0),2>'");
        column("c_line", "line", "'{1,-1,0}'");
        column("c_lseg", "lseg", "'[(0,0),(1,1)]'");
        column("c_jsonpath", "jsonpath", "'$.a[*] ? (@ > 1)'");
        column("c_int2vector", "int2vector", "'1 2'");
        column("c_enum", "mood", "'happy'");
        column("c_citext", "citext", "'MiXeD'");
        column("c_ltree", "ltree", "'top.science.astronomy'");
        column("c_composite", "pair", "ROW(1, 'x y')");
        column("c_moodrange", "moodrange", "'[sad,happy]'");
        column("c_varbit", "bit varying(8)", "B'101'");
    }

    private static PgTextServer server;
    private static RelationDescriptor kinds;
    private static DecodedRow values;
    private static DecodedRow nulls;
    private static List<PgOutputMessage> messages;

    @BeforeAll
    static void start() {
        server = PgTextServer.start();
        server.execute(
                "CREATE EXTENSION hstore",
                "CREATE EXTENSION citext",
                "CREATE EXTENSION ltree",
                "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')",
                "CREATE TYPE pair AS (n int, s text)",
                "CREATE TYPE moodrange AS RANGE (subtype = mood)",
                "CREATE DOMAIN price AS numeric(10,2)");
        StringBuilder create = new StringBuilder("CREATE TABLE kinds (id int PRIMARY KEY, c_price price,"
                + " c_money money, c_hstore hstore, c_point point, c_bits bit(12), c_flag bit(1), c_xid8 xid8,"
                + " c_moods mood[], c_prices price[]");
        StringBuilder insert = new StringBuilder("INSERT INTO kinds VALUES (1, 12.5, -3.5, 'a=>1, b=>NULL',"
                + " point(1.5, -2), B'101100111010', B'1', '42', '{sad,happy}', '{1.5,NULL}'");
        TEXT_FAMILIES.forEach((name, typeAndValue) -> {
            create.append(", ").append(name).append(' ').append(typeAndValue[0]);
            insert.append(", ").append(typeAndValue[1]);
        });
        server.execute(create.append(")").toString());
        LogicalChanges changes = LogicalChanges.capture(server, "kinds", "kinds");
        server.execute(insert.append(")").toString(), "INSERT INTO kinds (id) VALUES (2)");
        messages = changes.read();
        JdbcTypeCatalog catalog = new JdbcTypeCatalog(server.session());
        messages.stream().filter(TypeMessage.class::isInstance).forEach(m -> catalog.announced((TypeMessage) m));
        kinds = new RelationDescriptorFactory(
                        "db",
                        TopicNames.perTable("db"),
                        ValueMappings.DEFAULT,
                        new EnvelopeSchemas(),
                        catalog,
                        RowKeyColumns.NONE)
                .create(LogicalChanges.relation(messages));
        List<DecodedRow> rows = LogicalChanges.newTuples(messages).stream()
                .map(tuple -> kinds.rowDecoder().decode(tuple, RowImage.AFTER))
                .toList();
        values = rows.get(0);
        nulls = rows.get(1);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static void column(String name, String type, String value) {
        TEXT_FAMILIES.put(name, new String[] {type, value});
    }

    @Test
    void everyRowValidatesAgainstItsSchema() {
        values.row().validate();
        nulls.row().validate();
        assertEquals(Map.of(), values.textValues());
        for (Field field : kinds.rowSchema().fields()) {
            if (!field.name().equals("id")) {
                assertNull(nulls.row().get(field), field.name());
            }
        }
    }

    @Test
    void textFamiliesCarryTheServersOwnText() throws SQLException {
        try (Statement st = server.session().createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM kinds WHERE id = 1")) {
            rs.next();
            for (String column : TEXT_FAMILIES.keySet()) {
                assertEquals(rs.getString(column), values.row().get(column), column);
            }
        }
        assertEquals("ab   ", values.row().get("c_char"), "char(n) keeps its padding");
    }

    @Test
    void typedFamilies() {
        Struct row = values.row();
        assertEquals(new BigDecimal("12.50"), row.get("c_price"));
        assertEquals(new BigDecimal("-3.50"), row.get("c_money"));
        assertEquals("{\"a\":\"1\",\"b\":null}", row.get("c_hstore"));
        assertEquals(new GeoPoint(1.5, -2), GeoPoint.fromStruct(row.getStruct("c_point")));
        assertEquals(true, row.get("c_flag"));
        assertEquals(42L, row.get("c_xid8"));
        assertEquals(List.of("sad", "happy"), row.get("c_moods"));
        assertEquals(Arrays.asList(new BigDecimal("1.50"), null), row.get("c_prices"));
    }

    @Test
    void semanticNamesComeFromTheCatalogTypes() {
        assertEquals(StringSemantics.ENUM, schemaName("c_enum"));
        assertEquals(
                "sad,ok,happy",
                kinds.rowSchema().field("c_enum").schema().parameters().get("allowed"));
        assertEquals(StringSemantics.JSON, schemaName("c_hstore"));
        assertEquals(StringSemantics.LTREE, schemaName("c_ltree"));
        assertEquals(StringSemantics.BIT_STRING, schemaName("c_varbit"));
        assertNull(schemaName("c_citext"));
        assertEquals(
                StringSemantics.ENUM,
                kinds.rowSchema().field("c_moods").schema().valueSchema().name());
    }

    private static String schemaName(String column) {
        return kinds.rowSchema().field(column).schema().name();
    }
}
