package dev.pglane.source.values;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code T[]} as a Connect ARRAY of T's values. An array of more than one dimension or with a lower bound other
 * than 1, or one holding an element its element schema cannot hold, travels whole in {@code text_values}.
 */
final class ArrayDecoder implements TextDecoder {

    private final TextDecoder element;
    private final char delimiter;

    ArrayDecoder(TextDecoder element, char delimiter) {
        this.element = element;
        this.delimiter = delimiter;
    }

    @Override
    public Object decode(String text) {
        List<String> items = ArrayLiteral.oneDimensional(text, delimiter);
        if (items == null) {
            return UNREPRESENTABLE;
        }
        List<Object> values = new ArrayList<>(items.size());
        for (String item : items) {
            Object value = item == null ? null : element.decode(item);
            if (value == UNREPRESENTABLE) {
                return UNREPRESENTABLE;
            }
            values.add(value);
        }
        return values;
    }
}
