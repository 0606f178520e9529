package dev.pglane.local.verify;

import java.util.ArrayList;
import java.util.List;

/**
 * How one source table compares with the same-named target table.
 *
 * @param keyColumns the primary key columns; empty when the whole row is the key
 * @param targetRows null when the target has no such table
 * @param firstDifference the first differing key, when the tables differ
 * @param problem why the tables could not be compared (e.g. a column missing on the target), or null
 */
public record TableComparison(
        String table,
        List<String> keyColumns,
        long sourceRows,
        Long targetRows,
        RowDifference firstDifference,
        String problem) {

    public boolean isEqual() {
        return targetRows != null && problem == null && firstDifference == null && sourceRows == targetRows;
    }

    /** One line, e.g. {@code public.items: DIFFERENT - source 3 rows, target 2 rows; first differing key id=2: ...}. */
    public String describe() {
        if (targetRows == null) {
            return table + ": MISSING on target (source " + sourceRows + " rows)";
        }
        if (problem != null) {
            return table + ": cannot compare - " + problem;
        }
        if (isEqual()) {
            return table + ": equal (" + sourceRows + " rows)";
        }
        String counts = table + ": DIFFERENT - source " + sourceRows + " rows, target " + targetRows + " rows";
        if (firstDifference == null) {
            return counts + "; no differing row found on a second read (were the tables changing?)";
        }
        return counts + "; first differing key " + keyText() + ": source " + rowText(firstDifference.sourceRow())
                + ", target " + rowText(firstDifference.targetRow());
    }

    private String keyText() {
        if (keyColumns.isEmpty()) {
            return "(whole row, no primary key)";
        }
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < keyColumns.size(); i++) {
            parts.add(keyColumns.get(i) + "=" + firstDifference.key().get(i));
        }
        return String.join(", ", parts);
    }

    // one line per table, whatever the rows hold
    private static String rowText(String row) {
        return row == null ? "<no row>" : row.replace("\r", "\\r").replace("\n", "\\n");
    }
}
