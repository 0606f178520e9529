package dev.pglane.source.values;

import dev.pglane.wire.types.GeoPoint;
import org.apache.kafka.connect.data.Schema;

/** {@code point}, printed {@code (x,y)}, as {@code io.debezium.data.geometry.Point} of the column's schema. */
final class PointDecoder implements TextDecoder {

    private final Schema schema;

    PointDecoder(Schema schema) {
        this.schema = schema;
    }

    @Override
    public Object decode(String text) {
        int comma = text.indexOf(',');
        if (!text.startsWith("(") || !text.endsWith(")") || comma < 0) {
            throw new IllegalArgumentException("not a point (x,y)");
        }
        double x = Double.parseDouble(text.substring(1, comma));
        double y = Double.parseDouble(text.substring(comma + 1, text.length() - 1));
        // Non-finite coordinates go to text_values, for the reason given at ScalarDecoder.FLOAT32.
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            return UNREPRESENTABLE;
        }
        return new GeoPoint(x, y).toStruct(schema);
    }
}
