package dev.pglane.local.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectorConfigsTest {
    private final ConnectorConfigs configs =
            new ConnectorConfigs(Map.of("PGLANE_SOURCE_HOST", "127.0.0.1", "PGLANE_SOURCE_PORT", "5433"));

    @Test
    void placeholdersAreFilledAnywhereInAValue() {
        Map<String, String> template = new LinkedHashMap<>();
        template.put("connector.class", "dev.pglane.source.PgSourceConnector");
        template.put("database.host", "${PGLANE_SOURCE_HOST}");
        template.put("note", "at ${PGLANE_SOURCE_HOST}:${PGLANE_SOURCE_PORT}, costs $5");

        Map<String, String> filled = configs.fill("t.json", template);

        assertEquals("127.0.0.1", filled.get("database.host"));
        assertEquals("at 127.0.0.1:5433, costs $5", filled.get("note"));
        assertEquals(template.keySet(), filled.keySet());
    }

    @Test
    void aPlaceholderWithoutValueIsNamed() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> configs.fill("avro.json", Map.of("value.converter.url", "${PGLANE_REGISTRY_URL}/apis")));
        assertTrue(e.getMessage().contains("${PGLANE_REGISTRY_URL}"), e.getMessage());
        assertTrue(e.getMessage().contains("avro.json"), e.getMessage());
    }

    @Test
    void withAddsAValue() {
        Map<String, String> filled = configs.with("PGLANE_REGISTRY_URL", "http://127.0.0.1:8081")
                .fill("avro.json", Map.of("url", "${PGLANE_REGISTRY_URL}"));
        assertEquals("http://127.0.0.1:8081", filled.get("url"));
    }
}
