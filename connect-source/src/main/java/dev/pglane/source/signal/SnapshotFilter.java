package dev.pglane.source.signal;

import java.util.List;

/**
 * Which rows of one table an {@code execute-snapshot} signal asks for: a range of its chunk key, a WHERE condition,
 * or both.
 *
 * <p>The range's values go into the chunk queries as escaped literals cast to the key's types, so a signal from any
 * channel may carry one. A condition is a {@link RowCondition}: parsed by pglane's own grammar (columns compared with
 * literals), so no text of the signal's writer runs as SQL; the snapshot admits it only over columns the publication
 * publishes for the table.
 *
 * @param from the first key of the range (inclusive), a value per key column as PostgreSQL prints it; {@code null}:
 *     from the table's start
 * @param to the first key after the range (exclusive); {@code null}: to the table's end
 * @param where the condition on the table's columns, or {@code null}
 */
public record SnapshotFilter(List<String> from, List<String> to, RowCondition where) {

    public SnapshotFilter {
        from = from == null ? null : List.copyOf(from);
        to = to == null ? null : List.copyOf(to);
    }

    /** A filter of the key range only. */
    public static SnapshotFilter range(List<String> from, List<String> to) {
        return new SnapshotFilter(from, to, null);
    }

    /**
     * A filter of the condition only.
     *
     * @throws IllegalArgumentException if the grammar does not admit {@code condition}
     */
    public static SnapshotFilter where(String condition) {
        return new SnapshotFilter(null, null, RowCondition.parse(condition));
    }

    /** This filter and {@code other} together, one giving the range and the other the condition. */
    SnapshotFilter and(SnapshotFilter other) {
        return new SnapshotFilter(
                from != null ? from : other.from, to != null ? to : other.to, where != null ? where : other.where);
    }
}
