package dev.pglane.connect.config;

import dev.pglane.connect.database.HostAddress;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** The field check of {@code database.host}: {@link HostAddress}'s rule, in the error and in the generated docs. */
final class HostValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
        if (!(value instanceof String host) || !HostAddress.isValid(host)) {
            throw new ConfigException(name, value, "must be " + HostAddress.RULE);
        }
    }

    @Override
    public String toString() {
        return HostAddress.RULE;
    }
}
