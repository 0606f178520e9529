package dev.pglane.source;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Which tables the source captures: the include list, else everything but the exclude list, else
 * everything. Each pattern must match the whole {@code schema.table} name.
 */
public final class TableFilter {
    private final List<Pattern> include;
    private final List<Pattern> exclude;

    TableFilter(List<String> include, List<String> exclude) {
        this.include = include.stream().map(Pattern::compile).toList();
        this.exclude = exclude.stream().map(Pattern::compile).toList();
    }

    /** True when no list narrows the capture: the publication is then FOR ALL TABLES. */
    public boolean capturesAll() {
        return include.isEmpty() && exclude.isEmpty();
    }

    public boolean captures(String schema, String table) {
        String name = schema + "." + table;
        if (!include.isEmpty()) {
            return include.stream().anyMatch(p -> p.matcher(name).matches());
        }
        return exclude.stream().noneMatch(p -> p.matcher(name).matches());
    }

    /** The tables of {@code tables} this filter captures, in their order. */
    public List<DatabaseTables.Table> captured(List<DatabaseTables.Table> tables) {
        return tables.stream().filter(t -> captures(t.schema(), t.table())).toList();
    }
}
