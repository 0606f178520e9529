package dev.pglane.source.values;

import dev.pglane.wire.types.ColumnSchemas;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.ValueMappings;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.data.ConnectSchema;
import org.apache.kafka.connect.data.Schema;

/**
 * Decodes what a real server prints for a value of a column type, with the decoder and field schema pglane chooses
 * for that column, and checks that the value fits the schema.
 */
final class ColumnProbe {

    /** A decoded value with the text it came from and its field schema. */
    record Decoded(String text, Object value, Schema schema) {
        boolean travelsAsText() {
            return value == TextDecoder.UNREPRESENTABLE;
        }
    }

    private final PgTextServer server;
    private final ValueMappings mappings;
    private final Map<String, PgColumnType> types = new HashMap<>();

    ColumnProbe(PgTextServer server, ValueMappings mappings) {
        this.server = server;
        this.mappings = mappings;
    }

    ColumnProbe(PgTextServer server, NumericMapping mode) {
        this(server, ValueMappings.of(mode));
    }

    ColumnProbe(PgTextServer server) {
        this(server, NumericMapping.PRECISE);
    }

    /** Decodes {@code expression} cast to {@code sqlType}, as printed by the server. */
    Decoded decode(String sqlType, String expression) {
        return decodeText(sqlType, server.text("(" + expression + ")::" + sqlType));
    }

    /** Decodes {@code text} as a value of a {@code sqlType} column. */
    Decoded decodeText(String sqlType, String text) {
        PgColumnType type = types.computeIfAbsent(sqlType, server::columnType);
        Schema schema = ColumnSchemas.forColumn(type, false, mappings);
        Object value = TextDecoders.forType(type, schema).decode(text);
        if (value != TextDecoder.UNREPRESENTABLE) {
            ConnectSchema.validateValue(schema, value);
        }
        return new Decoded(text, value, schema);
    }

    /** Shorthand for the decoded value. */
    Object value(String sqlType, String expression) {
        return decode(sqlType, expression).value();
    }
}
