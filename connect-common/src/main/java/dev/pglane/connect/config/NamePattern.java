package dev.pglane.connect.config;

import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Validates a string key against a pattern and says the rule in words, both in the error
 * ("Invalid value X for configuration slot.name: must be ...") and in the generated docs.
 */
public final class NamePattern implements ConfigDef.Validator {
    /** A Kafka topic name or nothing, for keys that name a topic optionally. */
    public static final NamePattern OPTIONAL_TOPIC_NAME = new NamePattern(
            "|[a-zA-Z0-9._-]{1,249}", "empty or 1 to 249 characters from a-z, A-Z, 0-9, '.', '_' and '-'");

    private final Pattern pattern;
    private final String rule;

    /**
     * @param regex the whole value must match it
     * @param rule what a valid value is, completing "must be ..."
     */
    public NamePattern(String regex, String rule) {
        this.pattern = Pattern.compile(regex);
        this.rule = rule;
    }

    @Override
    public void ensureValid(String name, Object value) {
        if (value == null || !pattern.matcher(value.toString()).matches()) {
            throw new ConfigException(name, value, "must be " + rule);
        }
    }

    @Override
    public String toString() {
        return rule;
    }
}
