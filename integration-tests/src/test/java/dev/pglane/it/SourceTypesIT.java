package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.local.kafka.CommittedTransaction;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A table with a column of every type family of wire-format.md §7 gets rows of ordinary, special and extreme values
 * and a row of NULLs; each value arrives as §7 says, with the semantic name and the column parameters of its type.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SourceTypesIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ROWS = 3;

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.SourceServers#versions")
    @DisplayName("every type family arrives with its §7 encoding, specials in text_values, NULL as null")
    void everyTypeFamily(PostgresVersion version) throws Exception {
        assertEveryTypeFamily(servers.of(version), "types_pg" + version.major(), Map.of());
    }

    /** On a server of its own: the table and its types are the same as the other story's. */
    @Test
    @DisplayName("with payload.format=json the decoder lanes write the same records: every type family as §7 says")
    void everyTypeFamilyWrittenByTheLanes() throws Exception {
        String bytes = "org.apache.kafka.connect.converters.ByteArrayConverter";
        assertEveryTypeFamily(
                servers.another(PostgresVersion.fromProperty()),
                "types_lanes",
                Map.of("payload.format", "json", "key.converter", bytes, "value.converter", bytes));
    }

    private static void assertEveryTypeFamily(PostgresNode source, String name, Map<String, String> overrides)
            throws Exception {
        List<TypeCase> cases = TypeCases.all();
        createTable(source, cases);
        assertCatalogCovered(source);
        try (SourceConnectorRun run = SourceConnectorRun.start(worker, source, name, overrides);
                SqlSession session = SqlSession.open(source)) {
            for (int row = 0; row <= ROWS; row++) {
                session.exec(TypeCases.insert("every_type", cases, row));
            }
            session.commit();
            List<Map<String, String>> serverText = serverText(source, cases);
            Map<String, ColumnType> types = columnTypes(source);

            CommittedTransaction tx =
                    run.awaitCommitted(1, Duration.ofSeconds(60)).get(0);
            assertEquals(ROWS + 1, tx.changes().size(), "one insert per row");
            for (int row = 0; row <= ROWS; row++) {
                ChangeEvent event = tx.changes().get(row);
                assertEquals(Op.CREATE, event.op());
                assertEquals(row + 1, event.after().get("id"), "rows in insert order");
                assertRow(event, row, cases, serverText.get(row));
            }
            assertSchemas(tx.changes().get(0).after().schema(), cases, types);
        }
    }

    private static void assertRow(ChangeEvent event, int row, List<TypeCase> cases, Map<String, String> serverText)
            throws Exception {
        Map<String, String> expectedText = new HashMap<>();
        for (TypeCase c : cases) {
            String where = "row " + (row + 1) + " " + c.column() + " " + c.sqlType();
            Object actual = normalise(event.after().get(c.column()));
            Object expected = row < ROWS ? c.expected().get(row) : null;
            if (expected instanceof TypeCase.TextValue textValue) {
                expectedText.put("after." + c.column(), textValue.text());
                assertNull(actual, where + ": typed field of a value in text_values");
            } else if (expected instanceof TypeCase.JsonText json) {
                assertEquals(JSON.readTree(json.json()), JSON.readTree((String) actual), where);
            } else if (expected == TypeCase.SERVER_TEXT) {
                assertEquals(serverText.get(c.column()), actual, where + " (the server's text)");
            } else {
                assertEquals(expected, actual, where);
            }
        }
        assertEquals(expectedText, event.textValues(), "row " + (row + 1) + ": text_values");
        assertEquals(List.of(), event.unchangedToast(), "row " + (row + 1) + ": unchanged_toast");
    }

    /** Semantic names, and the {@code __pglane.*} parameters naming the type as the catalog does. */
    private static void assertSchemas(Schema row, List<TypeCase> cases, Map<String, ColumnType> types) {
        for (TypeCase c : cases) {
            Schema field = row.field(c.column()).schema();
            Schema valueSchema = field.type() == Schema.Type.ARRAY ? field.valueSchema() : field;
            assertEquals(c.schemaName(), valueSchema.name(), c.column() + ": semantic name");
            ColumnType type = types.get(c.column());
            assertEquals(type.formatted(), field.parameters().get("__pglane.type"), c.column() + ": __pglane.type");
            assertEquals(type.oid(), field.parameters().get("__pglane.oid"), c.column() + ": __pglane.oid");
        }
        assertEquals("true", row.field("id").schema().parameters().get("__pglane.key"), "id is the key");
        assertEquals(
                "sad,ok,happy", row.field("c_enum").schema().parameters().get("allowed"), "enum labels in sort order");
    }

    /** Record values in a comparable form: bytes as hex, structs as maps, lists element by element. */
    private static Object normalise(Object value) {
        if (value instanceof byte[] bytes) {
            return HexFormat.of().formatHex(bytes);
        }
        if (value instanceof ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            return HexFormat.of().formatHex(bytes);
        }
        if (value instanceof Struct struct) {
            Map<String, Object> fields = new LinkedHashMap<>();
            for (Field field : struct.schema().fields()) {
                fields.put(field.name(), normalise(struct.get(field)));
            }
            return fields;
        }
        if (value instanceof List<?> list) {
            List<Object> elements = new ArrayList<>(list.size());
            list.forEach(element -> elements.add(normalise(element)));
            return elements;
        }
        return value;
    }

    private static void createTable(PostgresNode source, List<TypeCase> cases) throws SQLException {
        List<String> statements = new ArrayList<>(TypeCases.prerequisites());
        statements.add(TypeCases.createTable("every_type", cases));
        SqlSession.execute(source, statements.toArray(String[]::new));
    }

    /**
     * Every type {@code pg_catalog} defines that a column can hold (base types, ranges and multiranges; arrays through
     * their element) is some column's type, directly, as an array's element or as a domain's base, but those no
     * client can write.
     */
    private static void assertCatalogCovered(PostgresNode source) throws SQLException {
        Set<String> catalog = new TreeSet<>(names(
                source,
                "SELECT typname FROM pg_catalog.pg_type WHERE typnamespace = 'pg_catalog'::regnamespace"
                        + " AND typtype IN ('b', 'r', 'm') AND typcategory <> 'P' AND typisdefined"
                        + " AND typname NOT LIKE '\\_%'"));
        catalog.removeAll(names(
                source,
                "SELECT x.typname FROM pg_catalog.pg_attribute a"
                        + " JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
                        + " JOIN pg_catalog.pg_type r ON r.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype"
                        + " ELSE t.oid END"
                        + " JOIN pg_catalog.pg_type x ON x.oid = CASE WHEN r.typname LIKE '\\_%' THEN r.typelem"
                        + " ELSE r.oid END"
                        + " WHERE a.attrelid = 'public.every_type'::regclass AND a.attnum > 0"));
        catalog.removeAll(CatalogTypeCases.UNWRITABLE.keySet());
        assertEquals(Set.of(), catalog, "catalog types no column of every_type holds");
    }

    private static List<String> names(PostgresNode source, String query) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection connection = source.open();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(query)) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    /** Each row's columns as the type's output function prints them ({@code format('%s', col)}). */
    private static List<Map<String, String>> serverText(PostgresNode source, List<TypeCase> cases) throws SQLException {
        List<Map<String, String>> rows = new ArrayList<>();
        try (Connection connection = source.open();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT "
                        + cases.stream()
                                .map(c -> "format('%s', " + c.column() + ")")
                                .collect(Collectors.joining(", "))
                        + " FROM every_type ORDER BY id")) {
            while (rs.next()) {
                Map<String, String> text = new HashMap<>();
                for (int i = 0; i < cases.size(); i++) {
                    text.put(cases.get(i).column(), rs.getString(i + 1));
                }
                rows.add(text);
            }
        }
        return rows;
    }

    /**
     * A column's type as the catalog names it to a session with the source's pinned search path (types outside
     * pg_catalog qualified by their schema); domains by their base type (wire-format.md §7).
     */
    private record ColumnType(String formatted, String oid) {}

    private static Map<String, ColumnType> columnTypes(PostgresNode source) throws SQLException {
        Map<String, ColumnType> types = new HashMap<>();
        try (Connection connection = source.open();
                Statement statement = connection.createStatement()) {
            statement.execute("SET search_path = pg_catalog, pg_temp"); // as every session of the source
            try (ResultSet rs = statement.executeQuery("SELECT a.attname,"
                    + " format_type(CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE a.atttypid END,"
                    + "             CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END),"
                    + " (CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE a.atttypid END)::text"
                    + " FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid"
                    + " WHERE a.attrelid = 'public.every_type'::regclass AND a.attnum > 0")) {
                while (rs.next()) {
                    types.put(rs.getString(1), new ColumnType(rs.getString(2), rs.getString(3)));
                }
            }
        }
        return types;
    }
}
