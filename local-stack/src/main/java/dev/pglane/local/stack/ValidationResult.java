package dev.pglane.local.stack;

import java.util.List;
import java.util.Map;

/**
 * What {@code PUT /connector-plugins/{class}/config/validate} found.
 *
 * @param errors the messages per config key, only for keys that have any, in the order Connect lists them
 */
public record ValidationResult(String connectorClass, int errorCount, Map<String, List<String>> errors) {

    /** The messages on one key; empty when the key has none. */
    public List<String> errorsOn(String key) {
        return errors.getOrDefault(key, List.of());
    }

    @Override
    public String toString() {
        return connectorClass + ": " + errorCount + " error(s) " + errors;
    }
}
