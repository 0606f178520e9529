package dev.pglane.sink.decode;

import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.types.VariableScaleDecimal;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Numbers no PostgreSQL {@code numeric} can hold, refused while they are still small: a decimal is a few bytes of
 * unscaled value and a scale, and a scale of a billion (a JSON number {@code 1E+999999999}, a spoiled {@code scale}
 * parameter) makes its plain text a billion digits long when the sink writes it, which takes the heap, or a worker
 * for minutes. PostgreSQL's numeric has at most 131,072 digits before the point and 16,383 after.
 */
final class NumericBounds {
    static final int MAX_INTEGER_DIGITS = 131_072;
    static final int MAX_SCALE = 16_383;

    private NumericBounds() {}

    /** Why a row image of {@code event} holds a number beyond numeric's range, or {@code null} if none does. */
    static String problem(ChangeEvent event) {
        String before = event.before() == null ? null : problem(event.before().schema(), event.before(), "before");
        return before != null || event.after() == null
                ? before
                : problem(event.after().schema(), event.after(), "after");
    }

    private static String problem(Schema schema, Object value, String path) {
        if (schema == null || value == null) {
            return null;
        }
        if (Decimal.LOGICAL_NAME.equals(schema.name())) {
            return decimalProblem(schema, value, path);
        }
        if (value instanceof Struct struct && VariableScaleDecimal.NAME.equals(schema.name())) {
            Object scale = struct.get(VariableScaleDecimal.SCALE);
            return scale instanceof Integer s && outOfRange(s) ? path + " has scale " + s + beyond() : null;
        }
        return switch (schema.type()) {
            case STRUCT -> fieldsProblem((Struct) value, path);
            case ARRAY -> elementsProblem(schema.valueSchema(), (List<?>) value, path);
            case MAP -> elementsProblem(schema.valueSchema(), List.copyOf(((Map<?, ?>) value).values()), path);
            default -> null;
        };
    }

    private static String decimalProblem(Schema schema, Object value, String path) {
        String scaleText =
                schema.parameters() == null ? null : schema.parameters().get(Decimal.SCALE_FIELD);
        if (scaleText != null) {
            try {
                int scale = Integer.parseInt(scaleText);
                if (outOfRange(scale)) {
                    return path + " is a decimal of scale " + scale + beyond();
                }
            } catch (NumberFormatException e) {
                return path + " is a decimal whose scale '" + scaleText + "' is no number";
            }
        }
        if (value instanceof BigDecimal decimal
                && (outOfRange(decimal.scale()) || decimal.precision() - decimal.scale() > MAX_INTEGER_DIGITS)) {
            return path + " is a decimal of " + decimal.precision() + " digits and scale " + decimal.scale() + beyond();
        }
        return null;
    }

    private static String fieldsProblem(Struct struct, String path) {
        for (Field field : struct.schema().fields()) {
            String problem = problem(field.schema(), struct.get(field), path + "." + field.name());
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String elementsProblem(Schema elementSchema, List<?> elements, String path) {
        for (Object element : elements) {
            String problem = problem(elementSchema, element, path + "[]");
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static boolean outOfRange(int scale) {
        return scale > MAX_SCALE || scale < -MAX_INTEGER_DIGITS;
    }

    private static String beyond() {
        return ", beyond what a PostgreSQL numeric holds (" + MAX_INTEGER_DIGITS + " digits before the point, "
                + MAX_SCALE + " after)";
    }
}
