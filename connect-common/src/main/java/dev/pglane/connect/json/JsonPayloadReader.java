package dev.pglane.connect.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
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
import org.apache.kafka.connect.errors.DataException;

/**
 * Reads the {@code payload} of a JsonConverter envelope into a Connect value of a known schema, from
 * a streaming parser positioned on the value's first token, giving what JsonConverter would give.
 * Tokens of a kind JsonConverter reads in its own way (a number for a string, a string for a number,
 * a decimal written as a number) end the fast path for the record.
 */
final class JsonPayloadReader {
    private JsonPayloadReader() {}

    static Object read(JsonParser in, Schema schema) throws IOException {
        return read(in, schema, PlainStructs.NONE);
    }

    /** Like {@link #read(JsonParser, Schema)}, with the structs {@code plain} takes made by it. */
    static Object read(JsonParser in, Schema schema, PlainStructs plain) throws IOException {
        JsonToken token = in.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return nullValue(schema);
        }
        if (schema.name() != null) {
            Object logical = readLogical(in, schema, token);
            if (logical != null) {
                return logical;
            }
        }
        return switch (schema.type()) {
            case INT8 -> (byte) expect(in, token, JsonToken.VALUE_NUMBER_INT).getIntValue();
            case INT16 -> (short) expect(in, token, JsonToken.VALUE_NUMBER_INT).getIntValue();
            case INT32 -> expect(in, token, JsonToken.VALUE_NUMBER_INT).getIntValue();
            case INT64 -> expect(in, token, JsonToken.VALUE_NUMBER_INT).getLongValue();
            case FLOAT32 -> floating(in, token).getFloatValue();
            case FLOAT64 -> floating(in, token).getDoubleValue();
            case BOOLEAN -> booleanValue(token);
            case STRING -> expect(in, token, JsonToken.VALUE_STRING).getText();
            case BYTES -> expect(in, token, JsonToken.VALUE_STRING).getBinaryValue();
            case ARRAY -> readArray(in, schema, token);
            case MAP -> readMap(in, schema, token);
            case STRUCT -> readStruct(in, schema, token, plain);
            default -> throw new NotFastPath("type " + schema.type());
        };
    }

    private static Object nullValue(Schema schema) {
        if (schema.defaultValue() != null) {
            return schema.defaultValue();
        }
        if (schema.isOptional()) {
            return null;
        }
        throw new DataException("Invalid null value for required " + schema.type() + " field");
    }

    /** @return the value, or {@code null} if the name is no logical type JsonConverter knows */
    private static Object readLogical(JsonParser in, Schema schema, JsonToken token) throws IOException {
        return switch (schema.name()) {
            case Decimal.LOGICAL_NAME ->
                Decimal.toLogical(
                        schema, expect(in, token, JsonToken.VALUE_STRING).getBinaryValue());
            case Date.LOGICAL_NAME ->
                Date.toLogical(
                        schema, expect(in, token, JsonToken.VALUE_NUMBER_INT).getIntValue());
            case Time.LOGICAL_NAME ->
                Time.toLogical(
                        schema, expect(in, token, JsonToken.VALUE_NUMBER_INT).getIntValue());
            case Timestamp.LOGICAL_NAME ->
                Timestamp.toLogical(
                        schema, expect(in, token, JsonToken.VALUE_NUMBER_INT).getLongValue());
            default -> null;
        };
    }

    private static JsonParser expect(JsonParser in, JsonToken token, JsonToken expected) {
        if (token != expected) {
            throw NotFastPath.wrongType(token + " where " + expected + " was expected");
        }
        return in;
    }

    private static JsonParser floating(JsonParser in, JsonToken token) {
        if (token != JsonToken.VALUE_NUMBER_FLOAT && token != JsonToken.VALUE_NUMBER_INT) {
            throw new NotFastPath(token + " where a number was expected");
        }
        return in;
    }

    private static Boolean booleanValue(JsonToken token) {
        if (token == JsonToken.VALUE_TRUE) {
            return Boolean.TRUE;
        }
        if (token == JsonToken.VALUE_FALSE) {
            return Boolean.FALSE;
        }
        throw NotFastPath.wrongType(token + " where a boolean was expected");
    }

    private static List<Object> readArray(JsonParser in, Schema schema, JsonToken token) throws IOException {
        expect(in, token, JsonToken.START_ARRAY);
        List<Object> values = new ArrayList<>();
        while (in.nextToken() != JsonToken.END_ARRAY) {
            values.add(read(in, schema.valueSchema()));
        }
        return values;
    }

    private static Map<Object, Object> readMap(JsonParser in, Schema schema, JsonToken token) throws IOException {
        Map<Object, Object> map = new HashMap<>();
        if (schema.keySchema().type() == Schema.Type.STRING) {
            expect(in, token, JsonToken.START_OBJECT);
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String key = in.currentName();
                in.nextToken();
                map.put(key, read(in, schema.valueSchema()));
            }
            return map;
        }
        expect(in, token, JsonToken.START_ARRAY);
        while (in.nextToken() != JsonToken.END_ARRAY) {
            expect(in, in.currentToken(), JsonToken.START_ARRAY);
            in.nextToken();
            Object key = read(in, schema.keySchema());
            in.nextToken();
            Object value = read(in, schema.valueSchema());
            if (in.nextToken() != JsonToken.END_ARRAY) {
                throw new NotFastPath("a map entry that is not a pair");
            }
            map.put(key, value);
        }
        return map;
    }

    private static Object readStruct(JsonParser in, Schema schema, JsonToken token, PlainStructs plain)
            throws IOException {
        expect(in, token, JsonToken.START_OBJECT);
        boolean plainHere = plain.takes(schema);
        PlainStructs inside = plainHere ? plain : PlainStructs.NONE;
        List<Field> fields = schema.fields();
        Object[] values = new Object[fields.size()];
        boolean[] seen = new boolean[fields.size()];
        int expected = 0;
        while (in.nextToken() == JsonToken.FIELD_NAME) {
            // JsonConverter writes the fields in schema order: try the next one before a lookup by name
            String name = in.currentName();
            Field field =
                    expected < fields.size() && fields.get(expected).name().equals(name)
                            ? fields.get(expected)
                            : schema.field(name);
            in.nextToken();
            if (field == null) {
                in.skipChildren(); // JsonConverter reads only the schema's fields
                continue;
            }
            seen[field.index()] = true;
            expected = field.index() + 1;
            values[field.index()] = read(in, field.schema(), inside);
        }
        for (Field field : fields) {
            if (!seen[field.index()]) {
                values[field.index()] = nullValue(field.schema());
            }
        }
        if (plainHere) {
            return plain.make(schema, values);
        }
        Struct struct = new Struct(schema);
        for (Field field : fields) {
            struct.put(field, values[field.index()]);
        }
        return struct;
    }
}
