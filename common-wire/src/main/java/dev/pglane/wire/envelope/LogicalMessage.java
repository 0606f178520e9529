package dev.pglane.wire.envelope;

import dev.pglane.wire.StructBuilder;
import dev.pglane.wire.StructReader;
import java.util.Arrays;
import java.util.Objects;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * The envelope's {@code message} block for op {@code m}: a logical decoding message written with
 * {@code pg_logical_emit_message(transactional, prefix, content)}.
 *
 * <p>Transactional messages belong to their transaction like a row change (counted in its END
 * marker); non-transactional ones are sent as soon as PostgreSQL decodes them, outside any
 * transaction, with key xid 0.
 */
public record LogicalMessage(String prefix, byte[] content, boolean transactional) {

    public static final String SCHEMA_NAME = "dev.pglane.wire.Message";

    public static final Schema SCHEMA = SchemaBuilder.struct()
            .name(SCHEMA_NAME)
            .version(1)
            .optional()
            .field("prefix", Schema.STRING_SCHEMA)
            .field("content", Schema.BYTES_SCHEMA)
            .field("transactional", Schema.BOOLEAN_SCHEMA)
            .build();

    public LogicalMessage {
        Objects.requireNonNull(prefix, "prefix");
        content = content.clone();
    }

    @Override
    public byte[] content() {
        return content.clone();
    }

    public Object toValue(StructBuilder.Kind kind) {
        return kind.start(SCHEMA)
                .put("prefix", prefix)
                .put("content", content.clone())
                .put("transactional", transactional)
                .build();
    }

    public static LogicalMessage fromStruct(Object value) {
        StructReader in = StructReader.of(value, SCHEMA_NAME, "envelope message");
        return new LogicalMessage(
                in.requiredString("prefix"), in.requiredBytes("content"), in.requiredBoolean("transactional"));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LogicalMessage other
                && other.transactional == transactional
                && other.prefix.equals(prefix)
                && Arrays.equals(other.content, content);
    }

    @Override
    public int hashCode() {
        return Objects.hash(prefix, transactional, Arrays.hashCode(content));
    }

    @Override
    public String toString() {
        return "LogicalMessage[prefix=" + prefix + ", " + content.length + " bytes, transactional=" + transactional
                + "]";
    }
}
