package dev.pglane.local.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The connector configs a user would send, taken from the config-examples templates on the classpath and filled in
 * with one stack's endpoints.
 *
 * <p>The templates are flat JSON objects with envsubst-style placeholders ({@code ${PGLANE_SOURCE_HOST}}); using
 * them here, rather than configs of the tests' own, keeps the published examples working. A placeholder left
 * without a value is an error that names it.
 */
public final class ConnectorConfigs {
    /** The plugins' connector classes, as the templates name them. */
    public static final String SOURCE_CLASS = "dev.pglane.source.PgSourceConnector";

    public static final String SINK_CLASS = "dev.pglane.sink.PgSinkConnector";
    public static final String SOURCE_JSON = "config-examples/source-json.json";
    public static final String SINK_JSON = "config-examples/sink-json.json";
    public static final String SOURCE_AVRO = "config-examples/source-avro.json";
    public static final String SINK_AVRO = "config-examples/sink-avro.json";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_]+)}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> values;

    // package-private for testing
    ConnectorConfigs(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    /** Values for a stack's two databases and broker; no schema registry unless {@link #with} adds one. */
    public static ConnectorConfigs forStack(PostgresNode source, PostgresNode target, String bootstrapServers) {
        Map<String, String> values = new LinkedHashMap<>();
        putDatabase(values, "SOURCE", source);
        putDatabase(values, "TARGET", target);
        values.put("PGLANE_BOOTSTRAP_SERVERS", bootstrapServers);
        return new ConnectorConfigs(values);
    }

    /** Values for a source database and broker only: enough for the source templates. */
    public static ConnectorConfigs forSource(PostgresNode source, String bootstrapServers) {
        Map<String, String> values = new LinkedHashMap<>();
        putDatabase(values, "SOURCE", source);
        values.put("PGLANE_BOOTSTRAP_SERVERS", bootstrapServers);
        return new ConnectorConfigs(values);
    }

    /** Values for a target database and broker only: enough for the sink templates. */
    public static ConnectorConfigs forSink(PostgresNode target, String bootstrapServers) {
        Map<String, String> values = new LinkedHashMap<>();
        putDatabase(values, "TARGET", target);
        values.put("PGLANE_BOOTSTRAP_SERVERS", bootstrapServers);
        return new ConnectorConfigs(values);
    }

    private static void putDatabase(Map<String, String> values, String side, PostgresNode node) {
        values.put("PGLANE_" + side + "_HOST", node.host());
        values.put("PGLANE_" + side + "_PORT", String.valueOf(node.port()));
        values.put("PGLANE_" + side + "_DB", node.database());
        values.put("PGLANE_" + side + "_USER", node.user());
        values.put("PGLANE_" + side + "_PASSWORD", node.password());
    }

    /** A copy with one more placeholder value, e.g. {@code PGLANE_REGISTRY_URL}. */
    public ConnectorConfigs with(String placeholder, String value) {
        Map<String, String> more = new LinkedHashMap<>(values);
        more.put(placeholder, value);
        return new ConnectorConfigs(more);
    }

    /** The template at {@code resource}, filled in; a mutable map in the template's order. */
    public Map<String, String> load(String resource) {
        return fill(resource, readTemplate(resource));
    }

    Map<String, String> fill(String resource, Map<String, String> template) {
        Map<String, String> config = new LinkedHashMap<>();
        template.forEach((key, raw) -> {
            Matcher matcher = PLACEHOLDER.matcher(raw);
            StringBuilder filled = new StringBuilder();
            while (matcher.find()) {
                String value = values.get(matcher.group(1));
                if (value == null) {
                    throw new IllegalArgumentException(resource + ": no value for placeholder ${" + matcher.group(1)
                            + "} in '" + key + "'; known: " + values.keySet());
                }
                matcher.appendReplacement(filled, Matcher.quoteReplacement(value));
            }
            matcher.appendTail(filled);
            config.put(key, filled.toString());
        });
        return config;
    }

    private static Map<String, String> readTemplate(String resource) {
        try (InputStream in = ConnectorConfigs.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException(resource + " is not on the classpath (pglane-config-examples jar)");
            }
            JsonNode root = JSON.readTree(in);
            if (!root.isObject()) {
                throw new IllegalArgumentException(resource + " is not a JSON object");
            }
            Map<String, String> template = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> field : root.properties()) {
                if (field.getValue().isContainerNode()) {
                    throw new IllegalArgumentException(resource + ": '" + field.getKey() + "' is not a flat value");
                }
                template.put(field.getKey(), field.getValue().asText());
            }
            return template;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
