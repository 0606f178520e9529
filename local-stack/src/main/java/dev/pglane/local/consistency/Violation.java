package dev.pglane.local.consistency;

/**
 * An invariant that did not hold in one snapshot of the target: a state no committed source state has.
 *
 * @param invariant which one, e.g. {@code transfers}
 * @param table the table where it showed, schema-qualified
 * @param key the row or rows, e.g. {@code session=3} or {@code mark_id=1000000000200}
 * @param detail what was wrong
 */
public record Violation(String invariant, String table, String key, String detail) {
    @Override
    public String toString() {
        return invariant + ": " + table + " " + key + ": " + detail;
    }
}
