package dev.pglane.connect.config;

import java.util.function.UnaryOperator;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Validates a string key with a check from common-wire (such as {@code TopicNames::validatePrefix}),
 * so that the connectors and the wire format enforce one rule with one message.
 */
public final class WireCheck implements ConfigDef.Validator {
    private final UnaryOperator<String> check;
    private final String rule;

    /**
     * @param check throws {@link IllegalArgumentException} naming the problem
     * @param rule what a valid value is, for the generated docs
     */
    public WireCheck(UnaryOperator<String> check, String rule) {
        this.check = check;
        this.rule = rule;
    }

    @Override
    public void ensureValid(String name, Object value) {
        try {
            check.apply(value == null ? null : value.toString());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name, value, e.getMessage());
        }
    }

    @Override
    public String toString() {
        return rule;
    }
}
