package dev.pglane.connect.validate;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.config.TlsModeWarning;
import dev.pglane.connect.database.DatabaseEndpoint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-key results of one {@code validate()} call: what the field checks parsed, and where the
 * later stages (cross-field rules, server checks) attach their problems.
 */
public final class ValidationReport {
    private static final Logger log = LoggerFactory.getLogger(ValidationReport.class);

    private final Map<String, ConfigValue> values = new LinkedHashMap<>();

    public ValidationReport(Config fieldChecks) {
        fieldChecks.configValues().forEach(v -> values.put(v.name(), v));
    }

    /** True when every key passed all checks so far, so its parsed value can be used. */
    public boolean isValid(String... keys) {
        return isValid(Arrays.asList(keys));
    }

    public boolean isValid(List<String> keys) {
        return keys.stream().allMatch(k -> values.containsKey(k) && errors(k).isEmpty());
    }

    /** The parsed value of a key of the plugin's ConfigDef. */
    public Object value(String key) {
        return values.get(key).value();
    }

    private List<String> errors(String key) {
        ConfigValue value = values.get(key);
        return value == null ? List.of() : value.errorMessages();
    }

    /**
     * Attaches a problem to its key. A key outside the plugin's ConfigDef (a Connect framework key
     * such as {@code topics}) gets its own entry, which the worker reports beside its own.
     */
    public void add(ConfigProblem problem) {
        values.computeIfAbsent(problem.key(), ConfigValue::new).addErrorMessage(problem.message());
    }

    /**
     * Once every connection key is valid, connects (under the probe's time limit) and runs the server checks that
     * {@code checks} chooses for that endpoint, adding their problems; with an invalid connection key it does nothing,
     * so every message is about one mistake.
     */
    public void probeServer(String connectorName, Function<DatabaseEndpoint, List<ServerCheck>> checks) {
        if (isValid(DatabaseSettings.KEYS)) {
            DatabaseEndpoint endpoint = DatabaseSettings.endpoint(this::value);
            new ConnectionProbe(endpoint, connectorName)
                    .run(checks.apply(endpoint))
                    .forEach(this::add);
        }
    }

    /**
     * Logs a WARN when {@code database.sslmode} is valid but does not authenticate the server: the mode is allowed,
     * and the validate API has no way to show anything but errors.
     */
    public void warnIfServerUnverified(String connectorName) {
        if (isValid(DatabaseSettings.SSLMODE)) {
            TlsModeWarning.log(log, connectorName, DatabaseSettings.sslMode(this::value));
        }
    }

    public Config toConfig() {
        return new Config(new ArrayList<>(values.values()));
    }
}
