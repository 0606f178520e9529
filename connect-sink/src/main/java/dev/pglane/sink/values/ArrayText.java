package dev.pglane.sink.values;

import java.util.List;
import org.apache.kafka.connect.data.Schema;

/**
 * {@code T[]} from a Connect ARRAY: the one-dimensional array literal {@code {"a b","x\"y",NULL}}. Each element is
 * rendered as a value of T, then always quoted, with {@code "} and {@code \} escaped, which {@code array_in} reads
 * the same for every element type and which keeps spaces, braces, delimiters and the string {@code NULL} literal;
 * only SQL NULL elements stay bare {@code NULL}.
 */
final class ArrayText {

    private ArrayText() {}

    /**
     * @param schema the ARRAY field schema; its value schema describes the elements
     * @param type the column's {@code format_type} text, e.g. {@code box[]}
     */
    static String of(Schema schema, FormattedType type, List<?> values) {
        Schema elementSchema = schema.valueSchema();
        FormattedType elementType = type.element();
        char delimiter = elementType.arrayDelimiter();
        StringBuilder out = new StringBuilder().append('{');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.append(delimiter);
            }
            String element = PgText.render(elementSchema, elementType, values.get(i));
            if (element == null) {
                out.append("NULL");
            } else {
                QuotedText.append(out, element);
            }
        }
        return out.append('}').toString();
    }
}
