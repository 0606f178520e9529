package dev.pglane.docs;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.function.Executable;

/** The error messages of a connector's {@code validate()} result, by key, as the REST API shows them. */
public final class ValidationErrors {
    private ValidationErrors() {}

    /**
     * Fails unless {@code parse} throws the ConfigException Kafka renders for a bad value: "Invalid
     * value V for configuration K: ..." followed by {@code rule}.
     */
    public static void assertRejected(Executable parse, String key, String value, String rule) {
        ConfigException e = assertThrows(ConfigException.class, parse);
        String expected = "Invalid value " + value + " for configuration " + key + ": ";
        assertTrue(e.getMessage().startsWith(expected) && e.getMessage().contains(rule), e.getMessage());
    }

    /** Only the keys that have errors. */
    public static Map<String, List<String>> byKey(Config config) {
        return config.configValues().stream()
                .filter(v -> !v.errorMessages().isEmpty())
                .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    }

    /** Fails unless one message on {@code key} contains {@code expected}, showing all errors if not. */
    public static void assertOn(Map<String, List<String>> errors, String key, String expected) {
        List<String> messages = errors.getOrDefault(key, List.of());
        assertTrue(
                messages.stream().anyMatch(m -> m.contains(expected)),
                () -> "expected an error on " + key + " containing \"" + expected + "\"; got " + errors);
    }
}
