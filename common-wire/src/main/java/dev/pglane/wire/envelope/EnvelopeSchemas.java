package dev.pglane.wire.envelope;

import dev.pglane.wire.SchemaNames;
import dev.pglane.wire.TopicNames;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Builds the envelope (record value) schemas and caches them per row schema.
 *
 * <p>A table's envelope is named after its row schema: {@code <prefix>.<schema>.<table>.Value}
 * becomes {@code <prefix>.<schema>.<table>.Envelope}, version 1. Logical decoding messages have no
 * row, so their envelope ({@code <prefix>.messages.Envelope}) has no {@code before}/{@code after},
 * {@code unchanged_toast}, {@code text_values} or {@code truncate}, and only it has {@code message},
 * as in Debezium, which also keeps messages out of the table envelopes.
 *
 * <p>Safe for concurrent use by decoder threads; one instance per task is enough. A row schema
 * changes only with the table's columns, so the cache stays small.
 */
public final class EnvelopeSchemas {

    public static final String NAME_SUFFIX = ".Envelope";
    public static final String ROW_NAME_SUFFIX = ".Value";

    static final String BEFORE = "before";
    static final String AFTER = "after";
    static final String SOURCE = "source";
    static final String OP = "op";
    static final String TS_MS = "ts_ms";
    static final String TS_US = "ts_us";
    static final String TS_NS = "ts_ns";
    static final String TRANSACTION = "transaction";
    static final String UNCHANGED_TOAST = "unchanged_toast";
    static final String TEXT_VALUES = "text_values";
    static final String PENDING_SNAPSHOT = "pending_snapshot";

    /**
     * The version of every envelope schema, and the newest a reader accepts. Version 2 added
     * {@code pending_snapshot} and snapshot rows ({@code op = r}) inside transactions.
     */
    public static final int VERSION = 2;

    static final String TRUNCATE = "truncate";
    static final String MESSAGE = "message";

    private static final Schema UNCHANGED_TOAST_SCHEMA =
            SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build();
    private static final Schema TEXT_VALUES_SCHEMA = SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA)
            .optional()
            .build();

    private final Map<Schema, Schema> byRow = new ConcurrentHashMap<>();
    private final Map<String, Schema> messagesByPrefix = new ConcurrentHashMap<>();

    /**
     * The envelope schema for a table whose row schema is {@code rowSchema} (as built by
     * {@code dev.pglane.wire.types.RowSchemas}).
     *
     * @throws IllegalArgumentException if the row schema is not an optional struct named {@code *.Value}
     */
    public Schema forRow(Schema rowSchema) {
        return byRow.computeIfAbsent(rowSchema, EnvelopeSchemas::buildForRow);
    }

    /** The envelope schema of the {@code <prefix>.messages} topic. */
    public Schema forMessages(String topicPrefix) {
        return messagesByPrefix.computeIfAbsent(topicPrefix, EnvelopeSchemas::buildForMessages);
    }

    private static Schema buildForRow(Schema row) {
        String rowName = row.name();
        if (row.type() != Schema.Type.STRUCT
                || !row.isOptional()
                || rowName == null
                || !rowName.endsWith(ROW_NAME_SUFFIX)) {
            throw new IllegalArgumentException(
                    "row schema must be an optional struct named *" + ROW_NAME_SUFFIX + ": " + rowName);
        }
        String name = rowName.substring(0, rowName.length() - ROW_NAME_SUFFIX.length()) + NAME_SUFFIX;
        SchemaBuilder builder = SchemaBuilder.struct().name(name).version(VERSION);
        builder.field(BEFORE, row).field(AFTER, row);
        common(builder);
        return builder.field(UNCHANGED_TOAST, UNCHANGED_TOAST_SCHEMA)
                .field(TEXT_VALUES, TEXT_VALUES_SCHEMA)
                .field(TRUNCATE, TruncateInfo.SCHEMA)
                .field(PENDING_SNAPSHOT, Schema.OPTIONAL_BOOLEAN_SCHEMA)
                .build();
    }

    private static Schema buildForMessages(String topicPrefix) {
        String name =
                SchemaNames.fullName(TopicNames.validatePrefix(topicPrefix), TopicNames.MESSAGES_SUFFIX) + NAME_SUFFIX;
        SchemaBuilder builder = SchemaBuilder.struct().name(name).version(VERSION);
        common(builder);
        return builder.field(MESSAGE, LogicalMessage.SCHEMA).build();
    }

    private static void common(SchemaBuilder builder) {
        builder.field(SOURCE, SourceInfo.SCHEMA)
                .field(OP, Schema.STRING_SCHEMA)
                .field(TS_MS, Schema.OPTIONAL_INT64_SCHEMA)
                .field(TS_US, Schema.OPTIONAL_INT64_SCHEMA)
                .field(TS_NS, Schema.OPTIONAL_INT64_SCHEMA)
                .field(TRANSACTION, TransactionInfo.SCHEMA);
    }
}
