package dev.pglane.local.verify;

import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** The outcome of comparing a source database with a target database, table by table. */
public record ComparisonReport(List<TableComparison> tables) {

    /** The comparisons of the tables {@code compared} accepts ({@code schema.table}), e.g. a sink's table group. */
    public ComparisonReport only(Predicate<String> compared) {
        return new ComparisonReport(
                tables.stream().filter(t -> compared.test(t.table())).toList());
    }

    public boolean isEqual() {
        return tables.stream().allMatch(TableComparison::isEqual);
    }

    /** The tables that differ, are missing on the target, or could not be compared. */
    public List<TableComparison> differences() {
        return tables.stream().filter(t -> !t.isEqual()).collect(Collectors.toList());
    }

    /** One line per table, then a verdict. */
    public String summary() {
        StringBuilder text = new StringBuilder();
        tables.forEach(t -> text.append(t.describe()).append('\n'));
        int differing = differences().size();
        if (tables.isEmpty()) {
            text.append("no tables to compare: source and target are equal");
        } else if (differing == 0) {
            text.append("source and target are equal (").append(tables.size()).append(" tables)");
        } else {
            text.append(differing).append(" of ").append(tables.size()).append(" tables differ");
        }
        return text.toString();
    }
}
