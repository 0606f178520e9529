package dev.pglane.wire;

import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Reads the fields of a pglane {@link Struct} (or of its {@link FieldValues}) and turns every deviation from the
 * contract into a {@link WireFormatException} that names the field and the value.
 *
 * <p>Connect's own getters fail with messages that omit which record was being decoded; the decoders
 * of keys, envelopes and markers all go through here so their errors read the same way.
 */
public final class StructReader {

    /** A {@link Struct} or {@link FieldValues}. */
    private final Object value;

    private final Schema schema;
    private final String context;
    /** The index after the field last read: the decoders read mostly in schema order. */
    private int next;

    private StructReader(Object value, Schema schema, String context) {
        this.value = value;
        this.schema = schema;
        this.context = context;
    }

    /**
     * Starts reading {@code value}, which must be a {@link Struct} or {@link FieldValues} whose schema is named
     * {@code schemaName}.
     *
     * @param context how errors name the thing being read, e.g. {@code "marker"}
     */
    public static StructReader of(Object value, String schemaName, String context) {
        Schema schema = schemaOf(value, schemaName, context);
        if (!schemaName.equals(schema.name())) {
            throw nameMismatch(schema, schemaName, context);
        }
        return new StructReader(value, schema, context);
    }

    /** Like {@link #of} but accepts any schema name that ends with {@code nameSuffix}. */
    public static StructReader ofNameSuffix(Object value, String nameSuffix, String context) {
        Schema schema = schemaOf(value, "*" + nameSuffix, context);
        String name = schema.name();
        if (name == null || !name.endsWith(nameSuffix)) {
            throw nameMismatch(schema, "*" + nameSuffix, context);
        }
        return new StructReader(value, schema, context);
    }

    /** Like {@link #of} for a struct whose schema name does not matter (or that has none). */
    public static StructReader ofAnyName(Object value, String context) {
        return new StructReader(value, schemaOf(value, "(any name)", context), context);
    }

    private static Schema schemaOf(Object value, String expectedName, String context) {
        if (value instanceof Struct struct) {
            return struct.schema();
        }
        if (value instanceof FieldValues fields) {
            return fields.schema();
        }
        throw new WireFormatException(context + ": expected a Struct named " + expectedName + " but got "
                + (value == null ? "null" : value.getClass().getName()));
    }

    private static WireFormatException nameMismatch(Schema schema, String expectedName, String context) {
        return WireFormatException.forField(context, "schema name", schema.name(), "must be " + expectedName);
    }

    /** The schema of what is read. */
    public Schema schema() {
        return schema;
    }

    public long requiredLong(String field) {
        return (Long) required(field, Schema.Type.INT64);
    }

    public Long optionalLong(String field) {
        return (Long) optional(field, Schema.Type.INT64);
    }

    /** A required 32-bit unsigned transaction id carried as INT64. */
    public long requiredXid(String field) {
        return checkXid(field, requiredLong(field));
    }

    /** An optional 32-bit unsigned transaction id carried as INT64. */
    public Long optionalXid(String field) {
        Long xid = optionalLong(field);
        return xid == null ? null : checkXid(field, xid);
    }

    /** A required INT64 that must be at least {@code min} (counts, ordinals, generations). */
    public long requiredAtLeast(String field, long min) {
        long value = requiredLong(field);
        if (value < min) {
            throw invalid(field, value, "must be at least " + min);
        }
        return value;
    }

    public String requiredString(String field) {
        return (String) required(field, Schema.Type.STRING);
    }

    public String optionalString(String field) {
        return (String) optional(field, Schema.Type.STRING);
    }

    public boolean requiredBoolean(String field) {
        return (Boolean) required(field, Schema.Type.BOOLEAN);
    }

    public Boolean optionalBoolean(String field) {
        return (Boolean) optional(field, Schema.Type.BOOLEAN);
    }

    public byte[] requiredBytes(String field) {
        Object value = required(field, Schema.Type.BYTES);
        return value instanceof java.nio.ByteBuffer buffer ? bytesOf(buffer) : (byte[]) value;
    }

    /** A struct the caller uses as Connect data (a row): never {@link FieldValues}. */
    public Struct optionalStruct(String field) {
        Object struct = optional(field, Schema.Type.STRUCT);
        if (struct instanceof FieldValues) {
            throw invalid(field, struct, "must be a Struct");
        }
        return (Struct) struct;
    }

    /** A struct to read with another StructReader: a {@link Struct} or {@link FieldValues}, or {@code null}. */
    public Object optionalBlock(String field) {
        return optional(field, Schema.Type.STRUCT);
    }

    @SuppressWarnings("unchecked")
    public <T> List<T> optionalArray(String field) {
        return (List<T>) optional(field, Schema.Type.ARRAY);
    }

    @SuppressWarnings("unchecked")
    public <K, V> Map<K, V> optionalMap(String field) {
        return (Map<K, V>) optional(field, Schema.Type.MAP);
    }

    /** An error about {@code field} of this struct. */
    public WireFormatException invalid(String field, Object value, String problem) {
        return WireFormatException.forField(context, field, value, problem);
    }

    private long checkXid(String field, long xid) {
        if (xid < 0 || xid > Xid.MAX) {
            throw invalid(field, xid, "must be a 32-bit unsigned transaction id");
        }
        return xid;
    }

    /** The field named {@code name}: the one after the last read if it is, else a lookup by name. */
    private Field declared(String name) {
        List<Field> fields = schema.fields();
        Field found =
                next < fields.size() && fields.get(next).name().equals(name) ? fields.get(next) : schema.field(name);
        if (found != null) {
            next = found.index() + 1;
        }
        return found;
    }

    private Object required(String field, Schema.Type type) {
        Object value = optional(field, type);
        if (value == null) {
            throw invalid(field, null, "required field is missing");
        }
        return value;
    }

    private Object optional(String field, Schema.Type type) {
        Field declared = declared(field);
        if (declared == null) {
            return null;
        }
        if (declared.schema().type() != type) {
            throw invalid(field, declared.schema().type(), "must have schema type " + type);
        }
        return value instanceof Struct struct ? struct.get(declared) : ((FieldValues) value).get(declared);
    }

    private static byte[] bytesOf(java.nio.ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
