package dev.pglane.source;

import static org.apache.kafka.common.config.ConfigDef.Importance.HIGH;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.Type.BOOLEAN;
import static org.apache.kafka.common.config.ConfigDef.Type.INT;
import static org.apache.kafka.common.config.ConfigDef.Type.LONG;
import static org.apache.kafka.common.config.ConfigDef.Type.PASSWORD;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.connect.config.EnumChoice;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The keys of the source's configuration that say when and how existing rows are sent, and where signals come from:
 * their docs, defaults and validators, defined into {@link PgSourceConfig#CONFIG_DEF}, which reads them.
 */
public final class SnapshotSettings {
    public static final String SNAPSHOT_MODE = "snapshot.mode";
    static final String SNAPSHOT_MODE_DOC = "When existing rows are sent. initial: when the connector has no stored"
            + " offset, every row of the captured tables is sent while changes stream (a connector that already has"
            + " offsets does not snapshot). never: only changes. initial_only: the initial snapshot, then streaming"
            + " stops. when_needed: as initial, and also when the stored offset can no longer be served because the"
            + " slot was lost: the slot is created again and every row sent again.";
    static final String SNAPSHOT_MODE_DEFAULT = EnumChoice.valueOf(SnapshotMode.INITIAL);
    public static final EnumChoice<SnapshotMode> SNAPSHOT_MODES = EnumChoice.of(SnapshotMode.class);

    public static final String SNAPSHOT_THREADS = "snapshot.threads";
    static final String SNAPSHOT_THREADS_DOC = "Sessions that read snapshot chunks at once, each with a connection of"
            + " its own. The chunks of a big table are read by all of them.";
    static final int SNAPSHOT_THREADS_DEFAULT = 2;

    public static final String SNAPSHOT_CHUNK_ROWS = "snapshot.chunk.rows";
    static final String SNAPSHOT_CHUNK_ROWS_DOC = "Rows per snapshot chunk: each chunk is read with one COPY and sent"
            + " as one transaction. A chunk is held in memory until the stream passes its high watermark; each reading"
            + " session has up to two chunks out.";
    static final int SNAPSHOT_CHUNK_ROWS_DEFAULT = 10_000;

    public static final String SNAPSHOT_CHUNK_BYTES = "snapshot.chunk.bytes";
    static final String SNAPSHOT_CHUNK_BYTES_DOC = "Bytes per snapshot chunk at most, at a table's average row size"
            + " (pg_table_size over reltuples): wide rows get fewer rows per chunk. 0: by rows only.";
    static final long SNAPSHOT_CHUNK_BYTES_DEFAULT = 32L * 1024 * 1024;

    public static final String SNAPSHOT_KEYLESS_MAX_BYTES = "snapshot.keyless.max.bytes";
    static final String SNAPSHOT_KEYLESS_MAX_BYTES_DOC = "Most bytes (of COPY text) of a table without a primary key or"
            + " replica identity index that a snapshot reads: such a table is read as one chunk, held in memory while"
            + " the changes made during the read are replayed onto its rows by value, and the rows take about three"
            + " times their text. A larger table stops the task, naming it; give it a key or raise this with the"
            + " worker's heap.";
    static final long SNAPSHOT_KEYLESS_MAX_BYTES_DEFAULT = 64L * 1024 * 1024;

    public static final String SIGNAL_TABLE = "signal.table";
    static final String SIGNAL_TABLE_DOC = "schema.table of a signal table, as Debezium's: rows inserted into it ask"
            + " for snapshots while the connector runs (type execute-snapshot with data {\"data-collections\":"
            + " [\"schema.table\"]}, stop-snapshot, pause-snapshot, resume-snapshot). Columns id text, type text,"
            + " data text. It must be captured (in table.include.list or the publication); its own changes are never"
            + " records. Empty: no signals.";
    static final String SIGNAL_TABLE_DEFAULT = "";
    static final ConfigDef.Validator SIGNAL_TABLE_RULE = new OptionalTableName();

    public static final String SNAPSHOT_NEW_TABLES = "snapshot.new.tables";
    static final String SNAPSHOT_NEW_TABLES_DOC = "Snapshot a table that joins the publication while the connector"
            + " runs or is stopped (ALTER PUBLICATION ... ADD TABLE, a table created under FOR ALL TABLES or FOR"
            + " TABLES IN SCHEMA), noticed within 5 s, while changes stream. The offsets then carry the captured"
            + " tables' OIDs. With table lists, a table created later that they select is added to a publication"
            + " pglane created (a WARN names it for one of your own).";
    static final boolean SNAPSHOT_NEW_TABLES_DEFAULT = false;

    public static final String SIGNAL_KAFKA_TOPIC = "signal.kafka.topic";
    static final String SIGNAL_KAFKA_TOPIC_DOC =
            "A Kafka topic to read signals from, as Debezium's: a record whose key is"
                    + " this connector's topic.prefix and whose value is {\"type\": \"execute-snapshot\", \"data\":"
                    + " {\"data-collections\": [\"schema.table\"]}} (or stop-, pause-, resume-snapshot) asks what a row of the"
                    + " signal table asks. The task writes each signal into the WAL as a logical decoding message, so that it"
                    + " takes effect at one point of the stream like a row of the signal table. Records of other keys are"
                    + " other connectors'. Empty: none.";
    static final String SIGNAL_KAFKA_TOPIC_DEFAULT = "";

    public static final String SIGNAL_KAFKA_BOOTSTRAP_SERVERS = "signal.kafka.bootstrap.servers";
    static final String SIGNAL_KAFKA_BOOTSTRAP_SERVERS_DOC = "The brokers of signal.kafka.topic (host:port,...);"
            + " required with it. Further consumer settings (security, for one) go in keys that start with"
            + " signal.consumer., as Kafka names them.";
    static final String SIGNAL_KAFKA_BOOTSTRAP_SERVERS_DEFAULT = "";

    public static final String SIGNAL_CONSUMER_PREFIX = "signal.consumer.";

    public static final String WAL_MESSAGES_KEY = "wal.messages.key";
    static final String WAL_MESSAGES_KEY_DOC = "The key (at least 16 characters) with which the connector seals the"
            + " logical decoding messages that steer it: snapshot watermarks, signals of signal.kafka.topic, captured"
            + " tables, sequence values. Any login on the source may call pg_logical_emit_message unless EXECUTE is"
            + " revoked, so the connector obeys only messages that carry its seal and warns of the rest"
            + " (wal-messages-refused-total). Empty: the connector generates a key on its first start and keeps it in"
            + " its source offsets; set one to keep it out of the offsets, or to keep messages of earlier runs valid"
            + " across a reset of the offsets. Changing it makes messages not yet streamed under the old key"
            + " (a snapshot chunk in flight, a signal) refused.";
    static final int WAL_MESSAGES_KEY_MIN_LENGTH = 16;

    private SnapshotSettings() {}

    static void define(ConfigGroup group) {
        group.key(SNAPSHOT_MODE, "Snapshot mode", Width.SHORT)
                .define(STRING, SNAPSHOT_MODE_DEFAULT, SNAPSHOT_MODES, HIGH, SNAPSHOT_MODE_DOC);
        group.key(SNAPSHOT_THREADS, "Snapshot threads", Width.SHORT)
                .define(INT, SNAPSHOT_THREADS_DEFAULT, Range.between(1, 64), MEDIUM, SNAPSHOT_THREADS_DOC);
        group.key(SNAPSHOT_CHUNK_ROWS, "Rows per snapshot chunk", Width.SHORT)
                .define(
                        INT,
                        SNAPSHOT_CHUNK_ROWS_DEFAULT,
                        Range.between(1, 10_000_000),
                        MEDIUM,
                        SNAPSHOT_CHUNK_ROWS_DOC);
        group.key(SNAPSHOT_CHUNK_BYTES, "Bytes per snapshot chunk", Width.SHORT)
                .define(LONG, SNAPSHOT_CHUNK_BYTES_DEFAULT, Range.atLeast(0), MEDIUM, SNAPSHOT_CHUNK_BYTES_DOC);
        group.key(SNAPSHOT_KEYLESS_MAX_BYTES, "Keyless table bytes", Width.SHORT)
                .define(
                        LONG,
                        SNAPSHOT_KEYLESS_MAX_BYTES_DEFAULT,
                        Range.atLeast(1),
                        MEDIUM,
                        SNAPSHOT_KEYLESS_MAX_BYTES_DOC);
        PaceSettings.define(group);
        group.key(SNAPSHOT_NEW_TABLES, "Snapshot tables that join later", Width.SHORT)
                .define(BOOLEAN, SNAPSHOT_NEW_TABLES_DEFAULT, null, MEDIUM, SNAPSHOT_NEW_TABLES_DOC);
        group.key(SIGNAL_TABLE, "Signal table", Width.MEDIUM)
                .define(STRING, SIGNAL_TABLE_DEFAULT, SIGNAL_TABLE_RULE, MEDIUM, SIGNAL_TABLE_DOC);
        group.key(SIGNAL_KAFKA_TOPIC, "Signal topic", Width.MEDIUM)
                .define(STRING, SIGNAL_KAFKA_TOPIC_DEFAULT, null, MEDIUM, SIGNAL_KAFKA_TOPIC_DOC);
        group.key(SIGNAL_KAFKA_BOOTSTRAP_SERVERS, "Signal topic's brokers", Width.LONG)
                .define(
                        STRING,
                        SIGNAL_KAFKA_BOOTSTRAP_SERVERS_DEFAULT,
                        null,
                        MEDIUM,
                        SIGNAL_KAFKA_BOOTSTRAP_SERVERS_DOC);
        group.key(WAL_MESSAGES_KEY, "WAL message key", Width.MEDIUM)
                .define(PASSWORD, null, new KeyLength(), MEDIUM, WAL_MESSAGES_KEY_DOC);
    }

    /** A key is empty or long enough; the error says how long, never what was given. */
    private static final class KeyLength implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            String key = value == null ? "" : ((Password) value).value();
            if (!key.isEmpty() && key.length() < WAL_MESSAGES_KEY_MIN_LENGTH) {
                throw new ConfigException(name, Password.HIDDEN, "must be " + this);
            }
        }

        @Override
        public String toString() {
            return "empty, or at least " + WAL_MESSAGES_KEY_MIN_LENGTH + " characters";
        }
    }
}
