package dev.pglane.sink.schedule;

import dev.pglane.sink.target.TableName;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One unique key value a transaction writes: two transactions that share a {@code WriteKey} may not
 * run at the same time (parallel-apply.md R2, R3).
 *
 * <p>The constructor puts the key in a canonical form so that the same row is the same key however it
 * was reached: columns are sorted by name (a foreign key may list the parent's key columns in another
 * order), integral numbers become {@link Long} (an {@code int8} child column referencing an
 * {@code int4} parent key) and {@code byte[]} becomes a {@link ByteBuffer} (content equality).
 *
 * @param table the target table holding the key (for a foreign key, the referenced table)
 * @param columns the key columns
 * @param values their values, none null, in the order of {@code columns}
 */
public record WriteKey(TableName table, List<String> columns, List<Object> values) {

    public WriteKey {
        if (columns.size() != values.size()) {
            throw new IllegalArgumentException(
                    "key of " + table + " has " + columns.size() + " columns but " + values.size() + " values");
        }
        if (columns.size() == 1) { // most keys: nothing to sort
            columns = List.copyOf(columns);
            values = List.of(normalise(values.get(0)));
        } else {
            List<Object> sortedValues = new ArrayList<>(values.size());
            columns = sortedColumns(columns, values, sortedValues);
            values = List.copyOf(sortedValues);
        }
    }

    /** {@code columns} sorted by name; adds the values, normalised, to {@code sortedValues} in that order. */
    private static List<String> sortedColumns(List<String> columns, List<Object> values, List<Object> sortedValues) {
        List<Integer> order = IntStream.range(0, columns.size())
                .boxed()
                .sorted(Comparator.comparing(columns::get))
                .toList();
        List<String> sortedColumns = new ArrayList<>(columns.size());
        for (int i : order) {
            sortedColumns.add(columns.get(i));
            sortedValues.add(normalise(values.get(i)));
        }
        return List.copyOf(sortedColumns);
    }

    private static Object normalise(Object value) {
        if (value instanceof Byte || value instanceof Short || value instanceof Integer) {
            return ((Number) value).longValue();
        }
        if (value instanceof byte[] bytes) {
            return ByteBuffer.wrap(bytes.clone()).asReadOnlyBuffer();
        }
        return value;
    }
}
