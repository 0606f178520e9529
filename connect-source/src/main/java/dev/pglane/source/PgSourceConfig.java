package dev.pglane.source;

import static org.apache.kafka.common.config.ConfigDef.Importance.HIGH;
import static org.apache.kafka.common.config.ConfigDef.Importance.LOW;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.NO_DEFAULT_VALUE;
import static org.apache.kafka.common.config.ConfigDef.Type.BOOLEAN;
import static org.apache.kafka.common.config.ConfigDef.Type.INT;
import static org.apache.kafka.common.config.ConfigDef.Type.LIST;
import static org.apache.kafka.common.config.ConfigDef.Type.LONG;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.avro.AvroPayload;
import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.config.EnumChoice;
import dev.pglane.connect.config.NamePattern;
import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.connect.config.RegexList;
import dev.pglane.connect.config.WireCheck;
import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.source.reader.LogicalMessages;
import dev.pglane.source.reader.MessageFilter;
import dev.pglane.source.reader.OriginFilter;
import dev.pglane.source.reader.StreamingMode;
import dev.pglane.source.reader.TopicRouting;
import dev.pglane.source.sequences.SequenceMessages;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.types.ValueMappings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.types.Password;

/**
 * The source connector's configuration: every key with its doc and default, and typed accessors. The {@code
 * database.*} keys are shared with the sink and live in {@link DatabaseSettings}; only their source-specific docs are
 * here. Required keys have no {@code _DEFAULT}. docs/source-config.md is generated from {@link #CONFIG_DEF}.
 */
public final class PgSourceConfig extends AbstractConfig {
    static final String GROUP_CONNECTION = "Connection";
    static final String GROUP_REPLICATION = "Replication";
    static final String GROUP_TOPICS = "Topics";
    static final String GROUP_DECODING = "Decoding";
    static final String GROUP_SNAPSHOT = "Snapshot";

    static final String DATABASE_NAME_DOC =
            "Database to capture. A logical replication slot belongs to one database, so one connector reads one.";
    static final String DATABASE_USER_DOC = "Role to connect as. It needs the REPLICATION attribute (or superuser)"
            + " and, when pglane creates the publication, CREATE on the database and ownership of the tables.";
    /** The database.* docs as the source reads them: a replication role on the source server. */
    static final DatabaseSettings.Role DATABASE_ROLE =
            new DatabaseSettings.Role("source", DATABASE_NAME_DOC, DATABASE_USER_DOC);

    public static final String SLOT_NAME = "slot.name";
    static final String SLOT_NAME_DOC = "Logical replication slot to read; created with the pgoutput plugin when"
            + " absent. The slot keeps WAL on the server until the connector confirms it, so drop it with"
            + " pg_drop_replication_slot when the connector is deleted.";
    static final String SLOT_NAME_DEFAULT = "pglane";

    public static final String SLOT_RECREATE = "slot.recreate";
    static final String SLOT_RECREATE_DOC = "When the connector has a stored offset but its slot is gone (dropped,"
            + " invalidated by max_slot_wal_keep_size or idle_replication_slot_timeout, or slot.name changed), the"
            + " changes since the offset are lost on the server. never: the task fails, saying what was lost and how"
            + " to recover. allow_gap: the slot is created again and streaming goes on, with a WARN naming the LSN"
            + " range whose changes were not captured; the target then lacks them until it is repaired.";
    static final String SLOT_RECREATE_DEFAULT = EnumChoice.valueOf(SlotRecreate.NEVER);
    static final EnumChoice<SlotRecreate> SLOT_RECREATES = EnumChoice.of(SlotRecreate.class);

    public static final String SLOT_RESTART_INTERVAL_BYTES = "slot.restart.interval.bytes";
    static final String SLOT_RESTART_INTERVAL_BYTES_DOC = "WAL the server may write before the source logs its"
            + " running transactions (pg_log_standby_snapshot(), PostgreSQL 16+), the record at which the server"
            + " moves the slot's restart_lsn: the slot then keeps about this much WAL more than Kafka needs, instead"
            + " of the 15 s of WAL between the server's own such records (100 MB and more under a heavy load). Needs"
            + " EXECUTE on pg_catalog.pg_log_standby_snapshot() (superuser only unless granted); without it, on an"
            + " older server or a standby, an INFO line says so at start. 0: never.";
    static final long SLOT_RESTART_INTERVAL_BYTES_DEFAULT = 16L * 1024 * 1024;

    public static final String PUBLICATION_NAME = "publication.name";
    static final String PUBLICATION_NAME_DOC = "Publication that selects the captured tables. Written as an"
            + " unquoted PostgreSQL identifier, so it is the name that CREATE PUBLICATION without quotes creates.";
    static final String PUBLICATION_NAME_DEFAULT = "pglane";

    public static final String PUBLICATION_CREATE = "publication.create";
    static final String PUBLICATION_CREATE_DOC = "Create the publication when it does not exist: FOR ALL TABLES"
            + " when neither table list is set, else FOR TABLE with the tables the lists select. An existing"
            + " publication is never altered; if it does not match the lists, validation fails.";
    static final boolean PUBLICATION_CREATE_DEFAULT = true;

    public static final String PUBLICATION_VIA_ROOT = "publication.via.partition.root";
    static final String PUBLICATION_VIA_ROOT_DOC = "Create the publication WITH (publish_via_partition_root):"
            + " a partitioned table's changes and snapshot rows are then the root table's, on one topic, whichever"
            + " partition holds the row (an update that moves a row between partitions is a delete and an insert),"
            + " and partitions created or attached later are captured with it. Off: every partition is a table of"
            + " its own. An existing publication keeps its setting; a WARN names a difference where it holds a partitioned table.";
    static final boolean PUBLICATION_VIA_ROOT_DEFAULT = true;

    public static final String TABLE_INCLUDE_LIST = "table.include.list";
    static final String TABLE_INCLUDE_LIST_DOC = "Capture only the tables whose schema.table matches one of these"
            + " regular expressions (whole-name match). Cannot be combined with table.exclude.list.";
    static final String TABLE_INCLUDE_LIST_DEFAULT = "";

    public static final String TABLE_EXCLUDE_LIST = "table.exclude.list";
    static final String TABLE_EXCLUDE_LIST_DOC = "Capture every table except those whose schema.table matches one"
            + " of these regular expressions (whole-name match). Cannot be combined with table.include.list.";
    static final String TABLE_EXCLUDE_LIST_DEFAULT = "";

    public static final String STREAMING_MODE = "streaming.mode";
    static final String STREAMING_MODE_DOC = "off: only committed transactions reach Kafka. on: the server streams"
            + " large transactions while they run, so their changes reach Kafka before the commit (or an ABORT"
            + " marker), and the server does not spill them to its own disk.";
    static final String STREAMING_MODE_DEFAULT = EnumChoice.valueOf(StreamingMode.OFF);
    static final EnumChoice<StreamingMode> STREAMING_MODES = EnumChoice.of(StreamingMode.class);

    public static final String LOGICAL_MESSAGES = "logical.messages";
    static final String LOGICAL_MESSAGES_DOC =
            "Messages written with pg_logical_emit_message: drop (not even requested from the server) or emit.";
    static final String LOGICAL_MESSAGES_DEFAULT = EnumChoice.valueOf(LogicalMessages.DROP);
    static final EnumChoice<LogicalMessages> LOGICAL_MESSAGE_CHOICES = EnumChoice.of(LogicalMessages.class);

    public static final String LOGICAL_MESSAGES_PREFIXES = "logical.messages.prefixes";
    static final String LOGICAL_MESSAGES_PREFIXES_DOC = "With logical.messages=emit, only messages whose prefix is"
            + " one of these, exactly as written, become records; the others are dropped, as under drop (the task"
            + " logs the prefixes at start). Empty: every prefix.";

    public static final String ORIGIN_FILTER = "origin.filter";
    static final String ORIGIN_FILTER_DOC = "Which transactions are captured by where they came from, as the origin"
            + " option of a PostgreSQL subscription chooses. any: every one. none: only those written without a"
            + " replication origin, leaving out what a subscriber or a pglane sink (which applies under an origin by"
            + " default) applied here; set it on both pipelines of a two-way replication so that no change loops"
            + " back. PostgreSQL 16+ filters on the server; 14 and 15 send such transactions, which the reader drops.";
    static final String ORIGIN_FILTER_DEFAULT = EnumChoice.valueOf(OriginFilter.ANY);
    static final EnumChoice<OriginFilter> ORIGIN_FILTERS = EnumChoice.of(OriginFilter.class);

    public static final String SEQUENCES_INTERVAL_MS = "sequences.interval.ms";
    static final String SEQUENCES_INTERVAL_MS_DOC = "How often the source reads the values of the sequences that the"
            + " captured tables' columns own (serial and identity columns) and, when they moved, sends them through"
            + " the stream as a transactional message on <prefix>.messages (prefix pglane.sequences.<publication>,"
            + " whatever logical.messages says), which pglane's sink applies forward only, so that the target's"
            + " sequences are not behind after a cut-over. Needs SELECT or USAGE on the sequences (a WARN names those"
            + " it cannot read). 0: none.";

    public static final String STATUS_INTERVAL_MS = "status.interval.ms";
    static final String STATUS_INTERVAL_MS_DOC = "How often the reader reports its position to the server. Keep it"
            + " well below the server's wal_sender_timeout (60 s by default) or the server drops the connection.";
    static final int STATUS_INTERVAL_MS_DEFAULT = 10_000;

    public static final String HEARTBEAT_INTERVAL_MS = "heartbeat.interval.ms";
    static final String HEARTBEAT_INTERVAL_MS_DOC = "How often to emit a heartbeat record while the captured tables"
            + " are idle, so the sink's view of the source position keeps moving. 0 turns heartbeats off.";
    static final int HEARTBEAT_INTERVAL_MS_DEFAULT = 0;

    public static final String RECONNECT_BACKOFF_INITIAL_MS = "reconnect.backoff.initial.ms";
    static final String RECONNECT_BACKOFF_INITIAL_MS_DOC =
            "Wait before the first reconnect after the replication connection is lost; it doubles on each failure.";
    static final int RECONNECT_BACKOFF_INITIAL_MS_DEFAULT = 500;

    public static final String RECONNECT_BACKOFF_MAX_MS = "reconnect.backoff.max.ms";
    static final String RECONNECT_BACKOFF_MAX_MS_DOC = "Longest wait between reconnect attempts.";
    static final int RECONNECT_BACKOFF_MAX_MS_DEFAULT = 30_000;

    public static final String TOPIC_PREFIX = "topic.prefix";
    static final String TOPIC_PREFIX_DOC = "Prefix of every topic the source writes: changes go to"
            + " <prefix>.<schema>.<table> (or one topic, see topic.routing), commit markers to <prefix>.transactions."
            + " The sink's source.topic.prefix must be the same.";

    public static final String TOPIC_ROUTING = "topic.routing";
    static final String TOPIC_ROUTING_DOC =
            "per_table: one topic per table, <prefix>.<schema>.<table>. single: all changes in topic.single.name.";
    static final String TOPIC_ROUTING_DEFAULT = EnumChoice.valueOf(TopicRouting.PER_TABLE);
    static final EnumChoice<TopicRouting> TOPIC_ROUTINGS = EnumChoice.of(TopicRouting.class);

    public static final String TOPIC_SINGLE_NAME = "topic.single.name";
    static final String TOPIC_SINGLE_NAME_DOC =
            "The topic of all changes when topic.routing is single. Empty: <prefix>.changes.";
    static final String TOPIC_SINGLE_NAME_DEFAULT = "";

    public static final String MARKER_BEGIN_ENABLED = "marker.begin.enabled";
    static final String MARKER_BEGIN_ENABLED_DOC = "Also write a BEGIN marker before each transaction, for"
            + " consumers that expect Debezium's BEGIN/END pairs. The sink needs only END and ABORT.";
    static final boolean MARKER_BEGIN_ENABLED_DEFAULT = false;

    public static final String COMMIT_REQUIRES_KAFKA = "commit.requires.kafka";
    static final String COMMIT_REQUIRES_KAFKA_DOC = "Whether a record reported done without Kafka's metadata (Connect's"
            + " errors.tolerance=all or a transformation that dropped it) fails the task, the slot staying before it."
            + " false only for a runtime without Kafka, such as Debezium's embedded engine or Debezium Server, which"
            + " reports every record done that way once its consumer took it.";
    static final boolean COMMIT_REQUIRES_KAFKA_DEFAULT = true;

    private static final NamePattern SLOT_NAME_RULE =
            new NamePattern("[a-z0-9_]{1,63}", "1 to 63 lower-case letters, digits or underscores");
    private static final NamePattern PUBLICATION_NAME_RULE = new NamePattern(
            "[a-z_][a-z0-9_$]{0,62}",
            "an unquoted PostgreSQL identifier: a lower-case letter or underscore, then up to 62 lower-case"
                    + " letters, digits, underscores or dollar signs");
    private static final WireCheck TOPIC_PREFIX_RULE = new WireCheck(
            TopicNames::validatePrefix,
            "characters from a-z, A-Z, 0-9, '.', '_' and '-', short enough for the .transactions suffix");

    public static final ConfigDef CONFIG_DEF = configDef();

    public PgSourceConfig(Map<?, ?> props) {
        super(CONFIG_DEF, props);
    }

    /** The table lists, from a parsed config or from the values of a validation. */
    @SuppressWarnings("unchecked")
    public static TableFilter tableFilter(Function<String, Object> parsed) {
        return new TableFilter(
                (List<String>) parsed.apply(TABLE_INCLUDE_LIST), (List<String>) parsed.apply(TABLE_EXCLUDE_LIST));
    }

    public DatabaseEndpoint database() {
        return DatabaseSettings.endpoint(this::get);
    }

    public SlotRecreate slotRecreate() {
        return SLOT_RECREATES.parse(getString(SLOT_RECREATE));
    }

    /** WAL between the running-transactions records the source logs; 0: none. */
    public long slotRestartIntervalBytes() {
        return getLong(SLOT_RESTART_INTERVAL_BYTES);
    }

    public String slotName() {
        return getString(SLOT_NAME);
    }

    public String publicationName() {
        return getString(PUBLICATION_NAME);
    }

    public boolean publicationCreate() {
        return getBoolean(PUBLICATION_CREATE);
    }

    public boolean publicationViaRoot() {
        return getBoolean(PUBLICATION_VIA_ROOT);
    }

    public TableFilter tableFilter() {
        return tableFilter(this::get);
    }

    public StreamingMode streamingMode() {
        return STREAMING_MODES.parse(getString(STREAMING_MODE));
    }

    public LogicalMessages logicalMessages() {
        return LOGICAL_MESSAGE_CHOICES.parse(getString(LOGICAL_MESSAGES));
    }

    /** Which logical decoding messages become records. */
    public MessageFilter messageFilter() {
        String sequences = sequencesInterval().isPresent() ? SequenceMessages.prefixFor(publicationName()) : null;
        return logicalMessages() == LogicalMessages.EMIT
                ? new MessageFilter(true, Set.copyOf(getList(LOGICAL_MESSAGES_PREFIXES)), sequences)
                : new MessageFilter(false, Set.of(), sequences);
    }

    /** Empty when sequence values are not sent. */
    public Optional<Duration> sequencesInterval() {
        int millis = getInt(SEQUENCES_INTERVAL_MS);
        return millis == 0 ? Optional.empty() : Optional.of(Duration.ofMillis(millis));
    }

    public OriginFilter originFilter() {
        return ORIGIN_FILTERS.parse(getString(ORIGIN_FILTER));
    }

    public SnapshotMode snapshotMode() {
        return SnapshotSettings.SNAPSHOT_MODES.parse(getString(SnapshotSettings.SNAPSHOT_MODE));
    }

    public int snapshotThreads() {
        return getInt(SnapshotSettings.SNAPSHOT_THREADS);
    }

    public int snapshotChunkRows() {
        return getInt(SnapshotSettings.SNAPSHOT_CHUNK_ROWS);
    }

    public long snapshotChunkBytes() {
        return getLong(SnapshotSettings.SNAPSHOT_CHUNK_BYTES);
    }

    public boolean snapshotNewTables() {
        return getBoolean(SnapshotSettings.SNAPSHOT_NEW_TABLES);
    }

    /** {@code schema.table} of the signal table, or {@code null} when signals are off. */
    public String signalTable() {
        String table = getString(SnapshotSettings.SIGNAL_TABLE);
        return table.isEmpty() ? null : table;
    }

    /** The topic of Kafka signals, or {@code null} when there are none. */
    public String signalKafkaTopic() {
        String topic = getString(SnapshotSettings.SIGNAL_KAFKA_TOPIC);
        return topic.isEmpty() ? null : topic;
    }

    public String signalKafkaBootstrapServers() {
        return getString(SnapshotSettings.SIGNAL_KAFKA_BOOTSTRAP_SERVERS);
    }

    /** The {@code signal.consumer.*} settings, without their prefix. */
    public Map<String, Object> signalConsumerSettings() {
        return originalsWithPrefix(SnapshotSettings.SIGNAL_CONSUMER_PREFIX);
    }

    /** {@code wal.messages.key}, or {@code null} when the connector keeps a key of its own. */
    public String walMessagesKey() {
        Password key = getPassword(SnapshotSettings.WAL_MESSAGES_KEY);
        return key == null || key.value().isEmpty() ? null : key.value();
    }

    /** True if some signal can reach the stream: the signal table's rows or messages a Kafka signal became. */
    public boolean signalsEnabled() {
        return signalTable() != null || signalKafkaTopic() != null;
    }

    public Duration statusInterval() {
        return Duration.ofMillis(getInt(STATUS_INTERVAL_MS));
    }

    /** Empty when heartbeats are off. */
    public Optional<Duration> heartbeatInterval() {
        int millis = getInt(HEARTBEAT_INTERVAL_MS);
        return millis == 0 ? Optional.empty() : Optional.of(Duration.ofMillis(millis));
    }

    /** Empty when none is set. */
    public Optional<String> heartbeatActionQuery() {
        String query = getString(HousekeepingSettings.HEARTBEAT_ACTION_QUERY).strip();
        return query.isEmpty() ? Optional.empty() : Optional.of(query);
    }

    /** {@code slot.failover}: wanted where the server offers failover slots. */
    public boolean slotFailover() {
        return getBoolean(HousekeepingSettings.SLOT_FAILOVER);
    }

    public long slotRetainedWalWarnBytes() {
        return getLong(HousekeepingSettings.SLOT_RETAINED_WAL_WARN_BYTES);
    }

    public Duration reconnectBackoffInitial() {
        return Duration.ofMillis(getInt(RECONNECT_BACKOFF_INITIAL_MS));
    }

    public Duration reconnectBackoffMax() {
        return Duration.ofMillis(getInt(RECONNECT_BACKOFF_MAX_MS));
    }

    public String topicPrefix() {
        return getString(TOPIC_PREFIX);
    }

    public TopicRouting topicRouting() {
        return TOPIC_ROUTINGS.parse(getString(TOPIC_ROUTING));
    }

    /** The topics to write, following {@code topic.routing}. */
    public TopicNames topicNames() {
        if (topicRouting() == TopicRouting.PER_TABLE) {
            return TopicNames.perTable(topicPrefix());
        }
        String name = getString(TOPIC_SINGLE_NAME);
        return TopicNames.singleTopic(topicPrefix(), name.isEmpty() ? null : name);
    }

    public boolean commitRequiresKafka() {
        return getBoolean(COMMIT_REQUIRES_KAFKA);
    }

    public boolean markerBeginEnabled() {
        return getBoolean(MARKER_BEGIN_ENABLED);
    }

    /** The number of decoder lanes, with 0 resolved to the cores this JVM may use. */
    public int decoderLanes() {
        int lanes = getInt(DecodingSettings.DECODER_LANES);
        return lanes == 0 ? Runtime.getRuntime().availableProcessors() : lanes;
    }

    public int decoderBatchSize() {
        return getInt(DecodingSettings.DECODER_BATCH_SIZE);
    }

    public int decoderQueueCapacity() {
        return getInt(DecodingSettings.DECODER_QUEUE_CAPACITY);
    }

    public int pollBatchMaxRecords() {
        return getInt(DecodingSettings.POLL_BATCH_MAX_RECORDS);
    }

    public PayloadFormat payloadFormat() {
        return DecodingSettings.PAYLOAD_FORMATS.parse(getString(DecodingSettings.PAYLOAD_FORMAT));
    }

    /** The settings of the lanes' Avro converter ({@code payload.avro.*}), for {@code payload.format=avro}. */
    public Map<String, String> avroSettings() {
        return AvroPayload.settings(originalsStrings());
    }

    public RecordKey recordKey() {
        return DecodingSettings.RECORD_KEYS.parse(getString(DecodingSettings.RECORD_KEY));
    }

    /** Tombstones after deletes: only when changes are keyed by row. */
    public boolean tombstonesOnDelete() {
        return recordKey() == RecordKey.ROW && getBoolean(DecodingSettings.TOMBSTONES_ON_DELETE);
    }

    public ValueMappings valueMappings() {
        return DecodingSettings.valueMappings(this);
    }

    private static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        DatabaseSettings.define(new ConfigGroup(def, GROUP_CONNECTION), DATABASE_ROLE);
        defineReplication(new ConfigGroup(def, GROUP_REPLICATION));
        defineTopics(new ConfigGroup(def, GROUP_TOPICS));
        DecodingSettings.define(new ConfigGroup(def, GROUP_DECODING));
        SnapshotSettings.define(new ConfigGroup(def, GROUP_SNAPSHOT));
        ColumnSettings.define(new ConfigGroup(def, ColumnSettings.GROUP));
        return def;
    }

    private static void defineReplication(ConfigGroup group) {
        group.key(SLOT_NAME, "Replication slot", Width.MEDIUM)
                .define(STRING, SLOT_NAME_DEFAULT, SLOT_NAME_RULE, HIGH, SLOT_NAME_DOC);
        group.key(SLOT_RECREATE, "Recreate a lost slot", Width.SHORT)
                .define(STRING, SLOT_RECREATE_DEFAULT, SLOT_RECREATES, MEDIUM, SLOT_RECREATE_DOC);
        group.key(SLOT_RESTART_INTERVAL_BYTES, "WAL between restart points (bytes)", Width.SHORT)
                .define(
                        LONG,
                        SLOT_RESTART_INTERVAL_BYTES_DEFAULT,
                        Range.atLeast(0),
                        LOW,
                        SLOT_RESTART_INTERVAL_BYTES_DOC);
        group.key(PUBLICATION_NAME, "Publication", Width.MEDIUM)
                .define(STRING, PUBLICATION_NAME_DEFAULT, PUBLICATION_NAME_RULE, HIGH, PUBLICATION_NAME_DOC);
        group.key(PUBLICATION_CREATE, "Create publication", Width.SHORT)
                .define(BOOLEAN, PUBLICATION_CREATE_DEFAULT, null, MEDIUM, PUBLICATION_CREATE_DOC);
        group.key(PUBLICATION_VIA_ROOT, "Publish partitions as their root", Width.SHORT)
                .define(BOOLEAN, PUBLICATION_VIA_ROOT_DEFAULT, null, MEDIUM, PUBLICATION_VIA_ROOT_DOC);
        group.key(TABLE_INCLUDE_LIST, "Tables to include", Width.LONG)
                .define(LIST, TABLE_INCLUDE_LIST_DEFAULT, new RegexList(), HIGH, TABLE_INCLUDE_LIST_DOC);
        group.key(TABLE_EXCLUDE_LIST, "Tables to exclude", Width.LONG)
                .define(LIST, TABLE_EXCLUDE_LIST_DEFAULT, new RegexList(), HIGH, TABLE_EXCLUDE_LIST_DOC);
        group.key(STREAMING_MODE, "Streaming of large transactions", Width.SHORT)
                .define(STRING, STREAMING_MODE_DEFAULT, STREAMING_MODES, MEDIUM, STREAMING_MODE_DOC);
        group.key(LOGICAL_MESSAGES, "Logical decoding messages", Width.SHORT)
                .define(STRING, LOGICAL_MESSAGES_DEFAULT, LOGICAL_MESSAGE_CHOICES, LOW, LOGICAL_MESSAGES_DOC);
        group.key(LOGICAL_MESSAGES_PREFIXES, "Logical decoding message prefixes", Width.LONG)
                .define(LIST, "", null, LOW, LOGICAL_MESSAGES_PREFIXES_DOC);
        group.key(ORIGIN_FILTER, "Origin filter", Width.SHORT)
                .define(STRING, ORIGIN_FILTER_DEFAULT, ORIGIN_FILTERS, MEDIUM, ORIGIN_FILTER_DOC);
        group.key(SEQUENCES_INTERVAL_MS, "Sequence values interval (ms)", Width.SHORT)
                .define(INT, 0, Range.atLeast(0), MEDIUM, SEQUENCES_INTERVAL_MS_DOC);
        group.key(STATUS_INTERVAL_MS, "Status interval (ms)", Width.SHORT)
                .define(INT, STATUS_INTERVAL_MS_DEFAULT, Range.atLeast(1), LOW, STATUS_INTERVAL_MS_DOC);
        group.key(HEARTBEAT_INTERVAL_MS, "Heartbeat interval (ms)", Width.SHORT)
                .define(INT, HEARTBEAT_INTERVAL_MS_DEFAULT, Range.atLeast(0), MEDIUM, HEARTBEAT_INTERVAL_MS_DOC);
        group.key(RECONNECT_BACKOFF_INITIAL_MS, "Reconnect backoff, first (ms)", Width.SHORT)
                .define(
                        INT,
                        RECONNECT_BACKOFF_INITIAL_MS_DEFAULT,
                        Range.atLeast(1),
                        LOW,
                        RECONNECT_BACKOFF_INITIAL_MS_DOC);
        group.key(RECONNECT_BACKOFF_MAX_MS, "Reconnect backoff, longest (ms)", Width.SHORT)
                .define(INT, RECONNECT_BACKOFF_MAX_MS_DEFAULT, Range.atLeast(1), LOW, RECONNECT_BACKOFF_MAX_MS_DOC);
        HousekeepingSettings.define(group);
    }

    private static void defineTopics(ConfigGroup group) {
        group.key(TOPIC_PREFIX, "Topic prefix", Width.MEDIUM)
                .define(STRING, NO_DEFAULT_VALUE, TOPIC_PREFIX_RULE, HIGH, TOPIC_PREFIX_DOC);
        group.key(TOPIC_ROUTING, "Topic routing", Width.SHORT)
                .define(STRING, TOPIC_ROUTING_DEFAULT, TOPIC_ROUTINGS, MEDIUM, TOPIC_ROUTING_DOC);
        group.key(TOPIC_SINGLE_NAME, "Single topic name", Width.MEDIUM)
                .define(STRING, TOPIC_SINGLE_NAME_DEFAULT, NamePattern.OPTIONAL_TOPIC_NAME, LOW, TOPIC_SINGLE_NAME_DOC);
        group.key(MARKER_BEGIN_ENABLED, "BEGIN markers", Width.SHORT)
                .define(BOOLEAN, MARKER_BEGIN_ENABLED_DEFAULT, null, LOW, MARKER_BEGIN_ENABLED_DOC);
        group.key(COMMIT_REQUIRES_KAFKA, "Done means stored in Kafka", Width.SHORT)
                .define(BOOLEAN, COMMIT_REQUIRES_KAFKA_DEFAULT, null, LOW, COMMIT_REQUIRES_KAFKA_DOC);
    }
}
