package dev.pglane.source.values;

import static dev.pglane.source.values.PgTextServer.literal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.wire.types.StringSemantics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** hstore (the real extension) as a JSON object: every pair, NULL values, quotes and backslashes. */
class HstoreDecoderTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static PgTextServer server;
    private static ColumnProbe probe;

    @BeforeAll
    static void start() {
        server = PgTextServer.start();
        server.execute("CREATE EXTENSION hstore");
        probe = new ColumnProbe(server);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void pairsBecomeAJsonObjectWithNullValues() throws Exception {
        Map<String, String> pairs = new LinkedHashMap<>();
        pairs.put("a", "1");
        pairs.put("b", null);
        pairs.put("c d", "x\"y");
        pairs.put("back\\slash", "");
        pairs.put("NULL", "NULL");
        pairs.put("ü=>", "line\nbreak\ttab\u0001");
        pairs.put("", "empty key");
        assertRoundTrip(pairs);
    }

    @Test
    void anEmptyHstoreIsAnEmptyObject() throws Exception {
        assertRoundTrip(Map.of());
    }

    @Test
    void theFieldIsAJsonString() {
        ColumnProbe.Decoded decoded = probe.decode("hstore", "'a=>1'");
        assertEquals(StringSemantics.JSON, decoded.schema().name());
        assertEquals("{\"a\":\"1\"}", decoded.value());
    }

    @Test
    void malformedTextIsAnError() {
        for (String text : new String[] {"\"a\"=>", "\"a\"=>\"1\" \"b\"=>\"2\"", "a=>1", "\"a\"=\"1\"", "\"a"}) {
            assertThrows(IllegalArgumentException.class, () -> HstoreDecoder.INSTANCE.decode(text), text);
        }
    }

    /** Decodes the server's text of an hstore holding {@code pairs}, and builds the same hstore back from the JSON. */
    private static void assertRoundTrip(Map<String, String> pairs) throws Exception {
        String expression = hstore(pairs);
        String json = (String) probe.value("hstore", expression);
        Map<String, String> decoded = JSON.readValue(json, new TypeReference<Map<String, String>>() {});
        assertEquals(pairs, decoded, json);
        server.assertTrueOnServer(hstore(decoded) + " = " + expression);
    }

    private static String hstore(Map<String, String> pairs) {
        List<String> keys = new ArrayList<>();
        List<String> values = new ArrayList<>();
        pairs.forEach((key, value) -> {
            keys.add(literal(key));
            values.add(value == null ? "NULL" : literal(value));
        });
        return "hstore(ARRAY[" + String.join(",", keys) + "]::text[], ARRAY[" + String.join(",", values) + "]::text[])";
    }
}
