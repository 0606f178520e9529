package dev.pglane.wire.envelope;

import dev.pglane.wire.StructBuilder;
import dev.pglane.wire.StructReader;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * The envelope's {@code truncate} block for op {@code t}: the options of the TRUNCATE statement,
 * which pgoutput sends once for all tables it truncated. pglane emits one record per table, each
 * with the same options, so that a consumer replaying them gets the same effect.
 */
public record TruncateInfo(boolean cascade, boolean restartIdentity) {

    public static final String SCHEMA_NAME = "dev.pglane.wire.Truncate";

    public static final Schema SCHEMA = SchemaBuilder.struct()
            .name(SCHEMA_NAME)
            .version(1)
            .optional()
            .field("cascade", Schema.BOOLEAN_SCHEMA)
            .field("restart_identity", Schema.BOOLEAN_SCHEMA)
            .build();

    /** The options from pgoutput's Truncate flags byte (1 = CASCADE, 2 = RESTART IDENTITY). */
    public static TruncateInfo fromFlags(int flags) {
        return new TruncateInfo((flags & 1) != 0, (flags & 2) != 0);
    }

    public Object toValue(StructBuilder.Kind kind) {
        return kind.start(SCHEMA)
                .put("cascade", cascade)
                .put("restart_identity", restartIdentity)
                .build();
    }

    public static TruncateInfo fromStruct(Object value) {
        StructReader in = StructReader.of(value, SCHEMA_NAME, "envelope truncate");
        return new TruncateInfo(in.requiredBoolean("cascade"), in.requiredBoolean("restart_identity"));
    }
}
