package dev.pglane.connect.avro;

import dev.pglane.wire.FieldValues;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.io.Encoder;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Writes Connect data as Avro binary, the bytes that Apicurio's {@code AvroData} and Avro's {@code GenericDatumWriter}
 * write together, without the tree of Avro records between them. It is compiled once per schema pair: a Connect schema
 * and the Avro schema {@code AvroData} derives from it, walked side by side, so that branch indexes of unions, map
 * layouts and logical types are the derived schema's and not rules repeated here. A pair whose shape it does not know
 * (an Avro enum, a union of several types) does not compile: {@link #compile} says so, and the caller writes through
 * {@code AvroData}.
 */
@FunctionalInterface
interface ConnectAvroEncoder {

    void write(Object value, Encoder out) throws IOException;

    /** A shape of schema pair this encoder does not write; the caller falls back to {@code AvroData}. */
    final class Unsupported extends Exception {
        Unsupported(String shape) {
            super(shape, null, false, false);
        }
    }

    /** @throws Unsupported when the pair has a shape this encoder does not write */
    static ConnectAvroEncoder compile(Schema connect, org.apache.avro.Schema avro) throws Unsupported {
        if (avro.getType() == org.apache.avro.Schema.Type.UNION) {
            return nullable(connect, avro);
        }
        ConnectAvroEncoder present = present(connect, avro);
        return (value, out) -> {
            if (value == null) {
                throw new DataException("Conversion error: null value for field that is required and has no default"
                        + " value (schema " + connect + ")");
            }
            present.write(value, out);
        };
    }

    /** The union {@code AvroData} makes of an optional schema: null and one other branch, in either order. */
    private static ConnectAvroEncoder nullable(Schema connect, org.apache.avro.Schema union) throws Unsupported {
        List<org.apache.avro.Schema> branches = union.getTypes();
        if (branches.size() != 2) {
            throw new Unsupported("a union of " + branches.size() + " branches");
        }
        int nullBranch = branches.get(0).getType() == org.apache.avro.Schema.Type.NULL ? 0 : 1;
        if (branches.get(nullBranch).getType() != org.apache.avro.Schema.Type.NULL) {
            throw new Unsupported("a union without null");
        }
        int valueBranch = 1 - nullBranch;
        ConnectAvroEncoder present = present(connect, branches.get(valueBranch));
        return (value, out) -> {
            if (value == null) {
                out.writeIndex(nullBranch);
                out.writeNull();
            } else {
                out.writeIndex(valueBranch);
                present.write(value, out);
            }
        };
    }

    /** A value that is there. */
    private static ConnectAvroEncoder present(Schema connect, org.apache.avro.Schema avro) throws Unsupported {
        ConnectAvroEncoder logical = logical(connect, avro);
        if (logical != null) {
            return logical;
        }
        return switch (connect.type()) {
            case INT8 -> expect(avro, org.apache.avro.Schema.Type.INT, (v, out) -> out.writeInt((Byte) v));
            case INT16 -> expect(avro, org.apache.avro.Schema.Type.INT, (v, out) -> out.writeInt((Short) v));
            case INT32 -> expect(avro, org.apache.avro.Schema.Type.INT, (v, out) -> out.writeInt((Integer) v));
            case INT64 -> expect(avro, org.apache.avro.Schema.Type.LONG, (v, out) -> out.writeLong((Long) v));
            case FLOAT32 -> expect(avro, org.apache.avro.Schema.Type.FLOAT, (v, out) -> out.writeFloat((Float) v));
            case FLOAT64 -> expect(avro, org.apache.avro.Schema.Type.DOUBLE, (v, out) -> out.writeDouble((Double) v));
            case BOOLEAN ->
                expect(avro, org.apache.avro.Schema.Type.BOOLEAN, (v, out) -> out.writeBoolean((Boolean) v));
            case STRING -> expect(avro, org.apache.avro.Schema.Type.STRING, (v, out) -> out.writeString((String) v));
            case BYTES -> expect(avro, org.apache.avro.Schema.Type.BYTES, ConnectAvroEncoder::writeBytes);
            case ARRAY -> array(connect, avro);
            case MAP -> map(connect, avro);
            case STRUCT -> struct(connect, avro);
        };
    }

    /** Connect's logical types as {@code AvroData} writes them; {@code null} when the schema is none of them. */
    private static ConnectAvroEncoder logical(Schema connect, org.apache.avro.Schema avro) throws Unsupported {
        if (connect.name() == null) {
            return null;
        }
        return switch (connect.name()) {
            case Decimal.LOGICAL_NAME ->
                expect(
                        avro,
                        org.apache.avro.Schema.Type.BYTES,
                        (v, out) -> out.writeBytes(Decimal.fromLogical(connect, (BigDecimal) v)));
            case Date.LOGICAL_NAME ->
                expect(
                        avro,
                        org.apache.avro.Schema.Type.INT,
                        (v, out) -> out.writeInt(Date.fromLogical(connect, (java.util.Date) v)));
            case Time.LOGICAL_NAME ->
                expect(
                        avro,
                        org.apache.avro.Schema.Type.INT,
                        (v, out) -> out.writeInt(Time.fromLogical(connect, (java.util.Date) v)));
            case Timestamp.LOGICAL_NAME ->
                expect(
                        avro,
                        org.apache.avro.Schema.Type.LONG,
                        (v, out) -> out.writeLong(Timestamp.fromLogical(connect, (java.util.Date) v)));
            default -> null;
        };
    }

    private static ConnectAvroEncoder expect(
            org.apache.avro.Schema avro, org.apache.avro.Schema.Type type, ConnectAvroEncoder encoder)
            throws Unsupported {
        check(avro, type);
        return encoder;
    }

    private static void check(org.apache.avro.Schema avro, org.apache.avro.Schema.Type type) throws Unsupported {
        if (avro.getType() != type) {
            throw new Unsupported("Avro " + avro.getType() + " where " + type + " was expected");
        }
    }

    private static void writeBytes(Object value, Encoder out) throws IOException {
        if (value instanceof ByteBuffer buffer) {
            out.writeBytes(buffer.duplicate());
        } else {
            out.writeBytes((byte[]) value);
        }
    }

    private static ConnectAvroEncoder array(Schema connect, org.apache.avro.Schema avro) throws Unsupported {
        check(avro, org.apache.avro.Schema.Type.ARRAY);
        ConnectAvroEncoder element = compile(connect.valueSchema(), avro.getElementType());
        return (value, out) -> {
            List<?> list = (List<?>) value;
            out.writeArrayStart();
            out.setItemCount(list.size());
            for (Object item : list) {
                out.startItem();
                element.write(item, out);
            }
            out.writeArrayEnd();
        };
    }

    /** A map with string keys is an Avro map; one with other keys an array of key-value records. */
    private static ConnectAvroEncoder map(Schema connect, org.apache.avro.Schema avro) throws Unsupported {
        if (avro.getType() == org.apache.avro.Schema.Type.MAP) {
            if (connect.keySchema().type() != Schema.Type.STRING) {
                throw new Unsupported("an Avro map of " + connect.keySchema().type() + " keys");
            }
            ConnectAvroEncoder element = compile(connect.valueSchema(), avro.getValueType());
            return (value, out) -> {
                Map<?, ?> map = (Map<?, ?>) value;
                out.writeMapStart();
                out.setItemCount(map.size());
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    out.startItem();
                    out.writeString((String) entry.getKey());
                    element.write(entry.getValue(), out);
                }
                out.writeMapEnd();
            };
        }
        check(avro, org.apache.avro.Schema.Type.ARRAY);
        org.apache.avro.Schema entry = avro.getElementType();
        if (entry.getType() != org.apache.avro.Schema.Type.RECORD
                || entry.getFields().size() != 2) {
            throw new Unsupported("a map as an array of " + entry.getType());
        }
        ConnectAvroEncoder key =
                compile(connect.keySchema(), entry.getFields().get(0).schema());
        ConnectAvroEncoder element =
                compile(connect.valueSchema(), entry.getFields().get(1).schema());
        return (value, out) -> {
            Map<?, ?> map = (Map<?, ?>) value;
            out.writeArrayStart();
            out.setItemCount(map.size());
            for (Map.Entry<?, ?> pair : map.entrySet()) {
                out.startItem();
                key.write(pair.getKey(), out);
                element.write(pair.getValue(), out);
            }
            out.writeArrayEnd();
        };
    }

    /**
     * Fields in the Connect schema's order, which is the Avro record's ({@code AvroData} keeps it), from a {@link
     * Struct} or from {@link FieldValues}.
     */
    private static ConnectAvroEncoder struct(Schema connect, org.apache.avro.Schema avro) throws Unsupported {
        check(avro, org.apache.avro.Schema.Type.RECORD);
        List<Field> fields = connect.fields();
        if (avro.getFields().size() != fields.size()) {
            throw new Unsupported(
                    "a record of " + avro.getFields().size() + " fields for a struct of " + fields.size());
        }
        List<ConnectAvroEncoder> encoders = new ArrayList<>(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            encoders.add(compile(fields.get(i).schema(), avro.getFields().get(i).schema()));
        }
        Field[] byIndex = fields.toArray(Field[]::new);
        ConnectAvroEncoder[] encoderByIndex = encoders.toArray(ConnectAvroEncoder[]::new);
        return (value, out) -> {
            // get, not getWithoutDefault: a missing value is written as its schema's default, as AvroData does
            if (value instanceof FieldValues values) {
                for (int i = 0; i < byIndex.length; i++) {
                    encoderByIndex[i].write(values.get(byIndex[i]), out);
                }
            } else {
                Struct struct = (Struct) value;
                for (int i = 0; i < byIndex.length; i++) {
                    encoderByIndex[i].write(struct.get(byIndex[i]), out);
                }
            }
        };
    }
}
