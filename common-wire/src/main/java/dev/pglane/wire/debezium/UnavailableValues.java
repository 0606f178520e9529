package dev.pglane.wire.debezium;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * Finds the columns of a Debezium row that hold its placeholder for an unchanged TOAST value ({@code
 * unavailable.value.placeholder}, {@code __debezium_unavailable_value} by default), in each form Debezium writes
 * it: the text, its bytes, a one-element text, bytes or uuid array, the bytes as an integer or bigint array, and an
 * hstore map from the text to itself. A real value equal to one of these is taken for the placeholder too, as every
 * consumer of Debezium's topics must.
 *
 * <p>Not thread-safe, as its {@link RowCopies}.
 */
final class UnavailableValues {
    private final String text;
    private final byte[] bytes;
    private final Set<Object> collections;
    private final RowCopies copies;

    UnavailableValues(String placeholder, RowCopies copies) {
        this.copies = copies;
        this.text = placeholder;
        this.bytes = placeholder.getBytes(StandardCharsets.UTF_8);
        List<Integer> asInts = new ArrayList<>(bytes.length);
        List<Long> asLongs = new ArrayList<>(bytes.length);
        for (byte b : bytes) {
            asInts.add((int) b);
            asLongs.add((long) b);
        }
        this.collections = Set.of(
                List.of(placeholder),
                asInts,
                asLongs,
                List.of(UUID.nameUUIDFromBytes(bytes).toString()),
                Map.of(placeholder, placeholder));
    }

    /** A row with the placeholder columns set to null, and their names. */
    record Stripped(Struct row, List<String> columns) {}

    /** {@code row} itself with no columns when none holds the placeholder. */
    Stripped strip(Struct row) {
        if (row == null) {
            return new Stripped(null, List.of());
        }
        List<String> columns = null;
        for (Field field : row.schema().fields()) {
            if (isPlaceholder(row.get(field))) {
                if (columns == null) {
                    columns = new ArrayList<>();
                }
                columns.add(field.name());
            }
        }
        if (columns == null) {
            return new Stripped(row, List.of());
        }
        return new Stripped(copies.withNulls(row, columns), Collections.unmodifiableList(columns));
    }

    private boolean isPlaceholder(Object value) {
        if (value instanceof String s) {
            return s.equals(text);
        }
        if (value instanceof byte[] b) {
            return Arrays.equals(b, bytes);
        }
        if (value instanceof ByteBuffer buffer) {
            return buffer.equals(ByteBuffer.wrap(bytes));
        }
        if (value instanceof List<?> list && list.size() == 1 && isBytes(list.get(0))) {
            return isPlaceholder(list.get(0));
        }
        return (value instanceof List<?> || value instanceof Map<?, ?>) && collections.contains(value);
    }

    private static boolean isBytes(Object value) {
        return value instanceof byte[] || value instanceof ByteBuffer;
    }
}
