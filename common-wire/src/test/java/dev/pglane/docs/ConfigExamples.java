package dev.pglane.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The connector configs in config-examples/, as the REST API would receive them after {@code
 * envsubst} filled the {@code ${PGLANE_...}} placeholders.
 */
public final class ConfigExamples {
    /** What envsubst replaces: {@code ${NAME}} and {@code $NAME}. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)}?");

    /** Keys the Connect worker reads itself, beside the connector's ConfigDef. */
    private static final List<String> FRAMEWORK_PREFIXES = List.of(
            "key.converter",
            "value.converter",
            "header.converter",
            "topics",
            "errors.",
            "transforms",
            "predicates",
            "producer.override.",
            "consumer.override.",
            "topic.creation.");

    private static final List<String> FRAMEWORK_KEYS = List.of("name", "connector.class", "tasks.max");

    private ConfigExamples() {}

    /**
     * Loads {@code config-examples/<file>} with every placeholder replaced by a dummy value (a port
     * number for {@code ..._PORT}).
     *
     * @throws IllegalArgumentException for a {@code $} reference that is not a PGLANE_ placeholder,
     *     which envsubst would silently blank, or for a value that is not a JSON string
     */
    public static Map<String, String> load(String file) {
        Matcher m = PLACEHOLDER.matcher(RepoFiles.read("config-examples/" + file));
        StringBuilder json = new StringBuilder();
        while (m.find()) {
            if (!m.group(1).startsWith("PGLANE_")) {
                throw new IllegalArgumentException(file + ": envsubst would replace ${" + m.group(1) + "}");
            }
            m.appendReplacement(json, m.group(1).endsWith("_PORT") ? "5432" : "dummy");
        }
        m.appendTail(json);
        try {
            Map<String, String> config = new LinkedHashMap<>();
            JsonNode root = new ObjectMapper().readTree(json.toString());
            for (Map.Entry<String, JsonNode> field : root.properties()) {
                if (!field.getValue().isTextual()) {
                    throw new IllegalArgumentException(file + ": " + field.getKey() + " is not a JSON string");
                }
                config.put(field.getKey(), field.getValue().asText());
            }
            return config;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Keys that are neither the connector's nor Connect's own: typos, or keys of another plugin. */
    public static List<String> unknownKeys(Map<String, String> config, ConfigDef def) {
        return config.keySet().stream()
                .filter(k -> !def.names().contains(k) && !isFrameworkKey(k))
                .toList();
    }

    /** The messages of the ConfigDef's field checks; the connector's server checks are not run. */
    public static List<String> fieldErrors(Map<String, String> config, ConfigDef def) {
        return def.validate(config).stream()
                .flatMap(v -> v.errorMessages().stream())
                .toList();
    }

    private static boolean isFrameworkKey(String key) {
        return FRAMEWORK_KEYS.contains(key) || FRAMEWORK_PREFIXES.stream().anyMatch(key::startsWith);
    }
}
