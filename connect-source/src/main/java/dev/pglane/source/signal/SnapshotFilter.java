package dev.pglane.source.signal;

import java.util.List;

/**
 * Which rows of one table an {@code execute-snapshot} signal asks for: a range of its chunk key, a WHERE condition,
 * or both.
 *
 * <p>The range's values go into the chunk queries as escaped literals cast to the key's types, so a signal from any
 * channel may carry one. A WHERE condition is SQL text the source runs as the connector's role: it is accepted only
 * from the signal table, whose writers are database users already, never from the signal topic, and never with a
 * {@code ;}, so it cannot end the query it sits in. The queries it sits in run in read-only transactions.
 *
 * @param from the first key of the range (inclusive), a value per key column as PostgreSQL prints it; {@code null}:
 *     from the table's start
 * @param to the first key after the range (exclusive); {@code null}: to the table's end
 * @param where a boolean SQL condition on the table's columns, or {@code null}
 */
public record SnapshotFilter(List<String> from, List<String> to, String where) {

    public SnapshotFilter {
        from = from == null ? null : List.copyOf(from);
        to = to == null ? null : List.copyOf(to);
        if (where != null && where.isBlank()) {
            throw new IllegalArgumentException("a filter's condition is empty");
        }
        if (where != null && where.indexOf(';') >= 0) {
            throw new IllegalArgumentException("a filter's condition may not hold ';': " + where);
        }
    }

    /** A filter of the key range only. */
    public static SnapshotFilter range(List<String> from, List<String> to) {
        return new SnapshotFilter(from, to, null);
    }

    /** A filter of the WHERE condition only. */
    public static SnapshotFilter where(String condition) {
        return new SnapshotFilter(null, null, condition);
    }

    /** This filter and {@code other} together, one giving the range and the other the condition. */
    SnapshotFilter and(SnapshotFilter other) {
        return new SnapshotFilter(
                from != null ? from : other.from, to != null ? to : other.to, where != null ? where : other.where);
    }
}
