package dev.pglane.sink.admit;

import java.util.List;
import java.util.regex.Pattern;

/** The sink's {@code table.include.list}: regular expressions, each matched against the whole {@code schema.table}. */
public final class TableIncludeList {
    private final List<Pattern> patterns;

    /** @param patterns valid regular expressions (the config validated them); none admits every table */
    public TableIncludeList(List<String> patterns) {
        this.patterns = patterns.stream().map(Pattern::compile).toList();
    }

    public boolean isEmpty() {
        return patterns.isEmpty();
    }

    boolean includes(String schema, String table) {
        if (patterns.isEmpty()) {
            return true;
        }
        String name = schema + "." + table;
        return patterns.stream().anyMatch(p -> p.matcher(name).matches());
    }
}
