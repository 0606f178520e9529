package dev.pglane.connect.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Validator, recommender and parser of an enum-valued key. The configured values are the
 * constants' names in lower_snake_case ({@code VERIFY_FULL} is {@code verify_full}); parsing
 * ignores case so that {@code UPSERT} is not rejected for a reason the user cannot see.
 */
public final class EnumChoice<E extends Enum<E>> implements ConfigDef.Validator, ConfigDef.Recommender {
    private final Class<E> type;

    private EnumChoice(Class<E> type) {
        this.type = type;
    }

    public static <E extends Enum<E>> EnumChoice<E> of(Class<E> type) {
        return new EnumChoice<>(type);
    }

    /** The configured spelling of a constant. */
    public static String valueOf(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    /** Parses a value that passed {@link #ensureValid}. */
    public E parse(String value) {
        return find(value).orElseThrow(() -> new ConfigException("Not one of " + this + ": " + value));
    }

    @Override
    public void ensureValid(String name, Object value) {
        if (value == null || find(value.toString()).isEmpty()) {
            throw new ConfigException(name, value, "must be one of " + this);
        }
    }

    @Override
    public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
        return List.copyOf(names());
    }

    @Override
    public boolean visible(String name, Map<String, Object> parsedConfig) {
        return true;
    }

    /** The valid values as the docs and error messages show them: {@code error, skip, upsert}. */
    @Override
    public String toString() {
        return String.join(", ", names());
    }

    private Optional<E> find(String value) {
        String wanted = value.trim();
        return Arrays.stream(type.getEnumConstants())
                .filter(c -> valueOf(c).equalsIgnoreCase(wanted))
                .findFirst();
    }

    private List<String> names() {
        return Arrays.stream(type.getEnumConstants()).map(EnumChoice::valueOf).toList();
    }
}
