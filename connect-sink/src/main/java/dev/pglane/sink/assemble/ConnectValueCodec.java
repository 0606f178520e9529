package dev.pglane.sink.assemble;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * A compact binary form of a Connect value whose {@link Schema} both sides already hold, for spill
 * files: no field names or type tags are written, only a presence byte for optional values and the
 * values themselves. Logical types (Decimal, Date, Time, Timestamp) are written in their Connect
 * base form and come back as their Java types. BYTES come back as {@code byte[]}.
 */
final class ConnectValueCodec {

    private ConnectValueCodec() {}

    static void write(DataOutput out, Schema schema, Object value) throws IOException {
        if (schema.isOptional()) {
            out.writeBoolean(value != null);
            if (value == null) {
                return;
            }
        } else if (value == null) {
            throw new IOException("null value for required schema " + describe(schema));
        }
        writePresent(out, schema, logicalToBase(schema, value));
    }

    static Object read(DataInput in, Schema schema) throws IOException {
        if (schema.isOptional() && !in.readBoolean()) {
            return null;
        }
        return baseToLogical(schema, readPresent(in, schema));
    }

    private static void writePresent(DataOutput out, Schema schema, Object value) throws IOException {
        switch (schema.type()) {
            case INT8 -> out.writeByte((Byte) value);
            case INT16 -> out.writeShort((Short) value);
            case INT32 -> out.writeInt((Integer) value);
            case INT64 -> out.writeLong((Long) value);
            case FLOAT32 -> out.writeFloat((Float) value);
            case FLOAT64 -> out.writeDouble((Double) value);
            case BOOLEAN -> out.writeBoolean((Boolean) value);
            case STRING -> writeBytes(out, ((String) value).getBytes(StandardCharsets.UTF_8));
            case BYTES -> writeBytes(out, bytesOf(value));
            case ARRAY -> {
                List<?> list = (List<?>) value;
                out.writeInt(list.size());
                for (Object element : list) {
                    write(out, schema.valueSchema(), element);
                }
            }
            case MAP -> {
                Map<?, ?> map = (Map<?, ?>) value;
                out.writeInt(map.size());
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    write(out, schema.keySchema(), entry.getKey());
                    write(out, schema.valueSchema(), entry.getValue());
                }
            }
            case STRUCT -> {
                Struct struct = (Struct) value;
                for (Field field : schema.fields()) {
                    write(out, field.schema(), struct.getWithoutDefault(field.name()));
                }
            }
            default -> throw new IOException("unsupported schema type " + describe(schema));
        }
    }

    private static Object readPresent(DataInput in, Schema schema) throws IOException {
        return switch (schema.type()) {
            case INT8 -> in.readByte();
            case INT16 -> in.readShort();
            case INT32 -> in.readInt();
            case INT64 -> in.readLong();
            case FLOAT32 -> in.readFloat();
            case FLOAT64 -> in.readDouble();
            case BOOLEAN -> in.readBoolean();
            case STRING -> new String(readBytes(in), StandardCharsets.UTF_8);
            case BYTES -> readBytes(in);
            case ARRAY -> {
                int size = in.readInt();
                List<Object> list = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    list.add(read(in, schema.valueSchema()));
                }
                yield list;
            }
            case MAP -> {
                int size = in.readInt();
                Map<Object, Object> map = new HashMap<>(Math.max(4, size * 2));
                for (int i = 0; i < size; i++) {
                    map.put(read(in, schema.keySchema()), read(in, schema.valueSchema()));
                }
                yield map;
            }
            case STRUCT -> {
                Struct struct = new Struct(schema);
                for (Field field : schema.fields()) {
                    struct.put(field, read(in, field.schema()));
                }
                yield struct;
            }
            default -> throw new IOException("unsupported schema type " + describe(schema));
        };
    }

    private static Object logicalToBase(Schema schema, Object value) {
        String name = schema.name();
        if (name == null) {
            return value;
        }
        return switch (name) {
            case Decimal.LOGICAL_NAME -> Decimal.fromLogical(schema, (BigDecimal) value);
            case Date.LOGICAL_NAME -> Date.fromLogical(schema, (java.util.Date) value);
            case Time.LOGICAL_NAME -> Time.fromLogical(schema, (java.util.Date) value);
            case Timestamp.LOGICAL_NAME -> Timestamp.fromLogical(schema, (java.util.Date) value);
            default -> value;
        };
    }

    private static Object baseToLogical(Schema schema, Object value) {
        String name = schema.name();
        if (name == null) {
            return value;
        }
        return switch (name) {
            case Decimal.LOGICAL_NAME -> Decimal.toLogical(schema, (byte[]) value);
            case Date.LOGICAL_NAME -> Date.toLogical(schema, (Integer) value);
            case Time.LOGICAL_NAME -> Time.toLogical(schema, (Integer) value);
            case Timestamp.LOGICAL_NAME -> Timestamp.toLogical(schema, (Long) value);
            default -> value;
        };
    }

    private static byte[] bytesOf(Object value) {
        if (value instanceof ByteBuffer buffer) {
            byte[] copy = new byte[buffer.remaining()];
            buffer.duplicate().get(copy);
            return copy;
        }
        return (byte[]) value;
    }

    private static void writeBytes(DataOutput out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInput in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return bytes;
    }

    private static String describe(Schema schema) {
        return schema.type() + (schema.name() == null ? "" : " " + schema.name());
    }
}
