package dev.pglane.local.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The words of a benchmark's command line: {@code --option value} pairs, {@code --flag}s and repeatable
 * {@code --option KEY=VALUE} settings, each checked against the benchmark's usage text so that a misspelt option is an
 * error that shows the usage, not a silently ignored word.
 */
public final class BenchArgs {
    private final String usage;
    private final Map<String, String> values;
    private final Set<String> flags;
    private final Map<String, Map<String, String>> settings;

    private BenchArgs(
            String usage, Map<String, String> values, Set<String> flags, Map<String, Map<String, String>> settings) {
        this.usage = usage;
        this.values = values;
        this.flags = flags;
        this.settings = settings;
    }

    /**
     * @param flagNames the options that take no value
     * @param settingNames the repeatable options whose value is {@code KEY=VALUE}
     */
    public static BenchArgs parse(String[] args, String usage, Set<String> flagNames, Set<String> settingNames) {
        Map<String, String> values = new HashMap<>();
        Set<String> flags = new HashSet<>();
        Map<String, Map<String, String>> settings = new HashMap<>();
        Iterator<String> words = List.of(args).iterator();
        while (words.hasNext()) {
            String option = words.next();
            if (flagNames.contains(option)) {
                flags.add(option);
            } else if (settingNames.contains(option) && words.hasNext()) {
                String setting = words.next();
                int equals = setting.indexOf('=');
                if (equals < 1) {
                    throw new IllegalArgumentException(option + " needs KEY=VALUE: " + setting);
                }
                settings.computeIfAbsent(option, o -> new LinkedHashMap<>())
                        .put(setting.substring(0, equals), setting.substring(equals + 1));
            } else if (option.startsWith("--") && usage.contains("  " + option + " ") && words.hasNext()) {
                values.put(option, words.next());
            } else {
                throw new IllegalArgumentException("unknown option or missing value: " + option + "\n" + usage);
            }
        }
        return new BenchArgs(usage, values, flags, settings);
    }

    public boolean flag(String name) {
        return flags.contains(name);
    }

    public String text(String option, String defaultValue) {
        return values.getOrDefault(option, defaultValue);
    }

    public Path path(String option, String defaultValue) {
        return Path.of(text(option, defaultValue));
    }

    /** The settings given with {@code option}, in command-line order. */
    public Map<String, String> settings(String option) {
        return Map.copyOf(settings.getOrDefault(option, Map.of()));
    }

    public int positive(String option, int defaultValue) {
        String value = values.get(option);
        return value == null ? defaultValue : positive(option, value);
    }

    /** A comma-separated list of positive integers; an empty value is an empty list. */
    public List<Integer> positives(String option, String defaultValue) {
        String value = text(option, defaultValue).trim();
        List<Integer> numbers = new ArrayList<>();
        if (!value.isEmpty()) {
            for (String word : value.split(",")) {
                numbers.add(positive(option, word.trim()));
            }
        }
        return List.copyOf(numbers);
    }

    private int positive(String option, String value) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(option + " takes positive integers: " + value + "\n" + usage);
    }
}
