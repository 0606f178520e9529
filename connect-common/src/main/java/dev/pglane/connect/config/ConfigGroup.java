package dev.pglane.connect.config;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Recommender;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Validator;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * Defines the keys of one {@link ConfigDef} group and numbers them in the order they are defined,
 * so the REST UI and the generated docs list each section as written, without hand-kept order
 * numbers that drift when a key is added in the middle.
 */
public final class ConfigGroup {
    private final ConfigDef def;
    private final String name;
    private int order;

    public ConfigGroup(ConfigDef def, String name) {
        this.def = def;
        this.name = name;
    }

    /** Starts a key with how the REST UI shows it; {@link Key#define} completes it. */
    public Key key(String key, String displayName, Width width) {
        return new Key(key, displayName, width);
    }

    /** A key being defined. */
    public final class Key {
        private final String key;
        private final String displayName;
        private final Width width;

        private Key(String key, String displayName, Width width) {
            this.key = key;
            this.displayName = displayName;
            this.width = width;
        }

        /** Defines the key; a validator that is also a {@link Recommender} recommends its values. */
        public void define(Type type, Object defaultValue, Validator validator, Importance importance, String doc) {
            Recommender recommender = validator instanceof Recommender r ? r : null;
            def.define(
                    key,
                    type,
                    defaultValue,
                    validator,
                    importance,
                    doc,
                    name,
                    ++order,
                    width,
                    displayName,
                    recommender);
        }
    }
}
