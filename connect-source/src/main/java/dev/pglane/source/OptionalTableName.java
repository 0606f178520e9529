package dev.pglane.source;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** Empty, or {@code schema.table} with neither part empty. */
final class OptionalTableName implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
        String text = (String) value;
        int dot = text.indexOf('.');
        if (!text.isEmpty() && (dot <= 0 || dot == text.length() - 1)) {
            throw new ConfigException(name, value, "must be schema.table, or empty for no signals");
        }
    }

    @Override
    public String toString() {
        return "empty, or schema.table";
    }
}
