package dev.pglane.wire.types;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * PostgreSQL's native {@code point} as {@code io.debezium.data.geometry.Point}: STRUCT
 * {@code {x, y: FLOAT64, wkb: optional BYTES, srid: optional INT32}}. {@code wkb} is the
 * little-endian OGC Well-Known Binary of the point, which GIS consumers read directly; a native
 * point has no SRID, so {@code srid} is null.
 */
public record GeoPoint(double x, double y) {

    public static final String NAME = "io.debezium.data.geometry.Point";

    private static final int WKB_POINT = 1;

    public static SchemaBuilder builder() {
        return SchemaBuilder.struct()
                .name(NAME)
                .version(1)
                .doc("Geometry (POINT)")
                .field("x", Schema.FLOAT64_SCHEMA)
                .field("y", Schema.FLOAT64_SCHEMA)
                .field("wkb", Schema.OPTIONAL_BYTES_SCHEMA)
                .field("srid", Schema.OPTIONAL_INT32_SCHEMA);
    }

    /** This point as a struct of {@code schema} (the column's optional variant of {@link #builder()}). */
    public Struct toStruct(Schema schema) {
        return new Struct(schema).put("x", x).put("y", y).put("wkb", wkb());
    }

    public static GeoPoint fromStruct(Struct struct) {
        return new GeoPoint(struct.getFloat64("x"), struct.getFloat64("y"));
    }

    /** OGC WKB: byte order 1 (little-endian), type 1 (Point), x, y. */
    public byte[] wkb() {
        return ByteBuffer.allocate(21)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put((byte) 1)
                .putInt(WKB_POINT)
                .putDouble(x)
                .putDouble(y)
                .array();
    }
}
