package dev.pglane.docs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;

/**
 * Renders a {@link ConfigDef} as Markdown: one section per group in the order the groups were
 * defined, keys in their order within the group, each with its doc, type, default, valid values
 * and importance. The committed config docs are this output, so they cannot drift from the code.
 */
public final class ConfigDocsMarkdown {
    private static final String UNGROUPED = "Other";

    private ConfigDocsMarkdown() {}

    /**
     * @param title the page title
     * @param intro a paragraph under the title
     * @param regenerate the command that rewrites the file, shown to readers who want to change it
     */
    public static String render(ConfigDef def, String title, String intro, String regenerate) {
        StringBuilder out = new StringBuilder();
        out.append("# ").append(title).append("\n\n").append(intro).append("\n\n");
        out.append("<!-- Generated from the ConfigDef; do not edit. Regenerate with: ")
                .append(regenerate)
                .append(" -->\n");
        for (Map.Entry<String, List<ConfigKey>> group : byGroup(def).entrySet()) {
            out.append("\n## ").append(group.getKey()).append('\n');
            for (ConfigKey key : group.getValue()) {
                renderKey(out, key);
            }
        }
        return out.toString();
    }

    /**
     * The command that rewrites a generated doc: the module's doc test with {@code
     * -Dpglane.docs.write=true}; {@code -am} builds this test-jar first.
     */
    public static String regenerateCommand(String module, Class<?> docTest) {
        return "mvn -pl " + module + " -am test -D" + RepoFiles.WRITE_PROPERTY + "=true -Dtest="
                + docTest.getSimpleName() + " -Dsurefire.failIfNoSpecifiedTests=false";
    }

    /**
     * Keys the REST UI and these docs cannot place in a section: no group, order, width or display
     * name. Empty for a complete ConfigDef.
     */
    public static List<String> keysWithoutLayout(ConfigDef def) {
        return def.configKeys().values().stream()
                .filter(k -> k.group == null
                        || !def.groups().contains(k.group)
                        || k.orderInGroup < 1
                        || k.width == null
                        || k.displayName == null
                        || k.displayName.equals(k.name))
                .map(k -> k.name)
                .toList();
    }

    private static void renderKey(StringBuilder out, ConfigKey key) {
        out.append("\n### `").append(key.name).append("`\n\n");
        if (key.displayName != null) {
            out.append("**").append(key.displayName).append(".** ");
        }
        out.append(escape(key.documentation)).append("\n\n");
        out.append("- Type: ").append(key.type.name().toLowerCase(Locale.ROOT)).append('\n');
        out.append("- Default: ").append(defaultValue(key)).append('\n');
        if (key.validator != null) {
            out.append("- Valid values: ")
                    .append(escape(key.validator.toString()))
                    .append('\n');
        }
        out.append("- Importance: ")
                .append(key.importance.name().toLowerCase(Locale.ROOT))
                .append('\n');
    }

    private static Map<String, List<ConfigKey>> byGroup(ConfigDef def) {
        Map<String, List<ConfigKey>> groups = new LinkedHashMap<>();
        def.groups().forEach(g -> groups.put(g, new ArrayList<>()));
        for (ConfigKey key : def.configKeys().values()) {
            String group = key.group == null ? UNGROUPED : key.group;
            groups.computeIfAbsent(group, g -> new ArrayList<>()).add(key);
        }
        groups.values().forEach(keys -> keys.sort(Comparator.comparingInt(k -> k.orderInGroup)));
        return groups;
    }

    private static String defaultValue(ConfigKey key) {
        if (!key.hasDefault()) {
            return "required";
        }
        Object value = key.defaultValue;
        if (value == null) {
            return "none";
        }
        String text = value instanceof List<?> list
                ? String.join(",", list.stream().map(String::valueOf).toList())
                : String.valueOf(value);
        return text.isEmpty() ? "empty" : "`" + text + "`";
    }

    /** Angle brackets in docs (for example {@code <prefix>.transactions}) would read as HTML tags. */
    private static String escape(String text) {
        return text.replace("<", "\\<").replace(">", "\\>");
    }
}
