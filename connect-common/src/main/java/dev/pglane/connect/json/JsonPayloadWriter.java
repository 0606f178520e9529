package dev.pglane.connect.json;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Writes a Connect value as JsonConverter writes the {@code payload} of its envelope (decimals as
 * base64 of the unscaled bytes, dates as days, times and timestamps as milliseconds, maps with string
 * keys as objects and others as arrays of pairs, a missing value as its schema's default), straight to
 * a generator instead of through a tree of nodes.
 */
final class JsonPayloadWriter {
    private JsonPayloadWriter() {}

    static void write(JsonGenerator out, Schema schema, Object value) throws IOException {
        if (value == null) {
            writeNull(out, schema);
            return;
        }
        if (schema.name() != null && writeLogical(out, schema, value)) {
            return;
        }
        switch (schema.type()) {
            case INT8 -> out.writeNumber((int) (Byte) value);
            case INT16 -> out.writeNumber((Short) value);
            case INT32 -> out.writeNumber((Integer) value);
            case INT64 -> out.writeNumber((Long) value);
            case FLOAT32 -> out.writeNumber((Float) value);
            case FLOAT64 -> out.writeNumber((Double) value);
            case BOOLEAN -> out.writeBoolean((Boolean) value);
            case STRING -> out.writeString((String) value);
            case BYTES -> out.writeBinary(value instanceof ByteBuffer buffer ? buffer.array() : (byte[]) value);
            case ARRAY -> writeArray(out, schema, (List<?>) value);
            case MAP -> writeMap(out, schema, (Map<?, ?>) value);
            case STRUCT -> writeStruct(out, schema, (Struct) value);
            default -> throw new NotFastPath("type " + schema.type());
        }
    }

    private static void writeNull(JsonGenerator out, Schema schema) throws IOException {
        if (schema.defaultValue() != null) {
            write(out, schema, schema.defaultValue());
        } else if (schema.isOptional()) {
            out.writeNull();
        } else {
            throw new DataException("Conversion error: null value for field that is required and has no default value");
        }
    }

    /** @return {@code false} if the name is no logical type JsonConverter knows */
    private static boolean writeLogical(JsonGenerator out, Schema schema, Object value) throws IOException {
        switch (schema.name()) {
            case Decimal.LOGICAL_NAME -> out.writeBinary(Decimal.fromLogical(schema, (BigDecimal) value));
            case Date.LOGICAL_NAME -> out.writeNumber(Date.fromLogical(schema, (java.util.Date) value));
            case Time.LOGICAL_NAME -> out.writeNumber(Time.fromLogical(schema, (java.util.Date) value));
            case Timestamp.LOGICAL_NAME -> out.writeNumber(Timestamp.fromLogical(schema, (java.util.Date) value));
            default -> {
                return false;
            }
        }
        return true;
    }

    private static void writeArray(JsonGenerator out, Schema schema, List<?> values) throws IOException {
        out.writeStartArray();
        for (Object element : values) {
            write(out, schema.valueSchema(), element);
        }
        out.writeEndArray();
    }

    private static void writeMap(JsonGenerator out, Schema schema, Map<?, ?> map) throws IOException {
        boolean objectMode = schema.keySchema().type() == Schema.Type.STRING;
        if (objectMode) {
            out.writeStartObject();
        } else {
            out.writeStartArray();
        }
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (objectMode) {
                out.writeFieldName((String) entry.getKey());
            } else {
                out.writeStartArray();
                write(out, schema.keySchema(), entry.getKey());
            }
            write(out, schema.valueSchema(), entry.getValue());
            if (!objectMode) {
                out.writeEndArray();
            }
        }
        if (objectMode) {
            out.writeEndObject();
        } else {
            out.writeEndArray();
        }
    }

    private static void writeStruct(JsonGenerator out, Schema schema, Struct struct) throws IOException {
        if (struct.schema() != schema && !struct.schema().equals(schema)) {
            throw new DataException("Mismatching schema.");
        }
        out.writeStartObject();
        for (Field field : schema.fields()) {
            out.writeFieldName(field.name());
            // by Field, not by name (no hash lookup); a null comes back as the field's default, as
            // JsonConverter writes it under replace.null.with.default=true, the fast path's condition
            write(out, field.schema(), struct.get(field));
        }
        out.writeEndObject();
    }
}
