package dev.pglane.sink;

import static org.apache.kafka.common.config.ConfigDef.Importance.HIGH;
import static org.apache.kafka.common.config.ConfigDef.Importance.LOW;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.NO_DEFAULT_VALUE;
import static org.apache.kafka.common.config.ConfigDef.Type.BOOLEAN;
import static org.apache.kafka.common.config.ConfigDef.Type.INT;
import static org.apache.kafka.common.config.ConfigDef.Type.LIST;
import static org.apache.kafka.common.config.ConfigDef.Type.LONG;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.config.EnumChoice;
import dev.pglane.connect.config.NamePattern;
import dev.pglane.connect.config.RegexList;
import dev.pglane.connect.config.WireCheck;
import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.sink.admit.ConsumedTopics;
import dev.pglane.sink.admit.TableIncludeList;
import dev.pglane.sink.apply.ConflictPolicy;
import dev.pglane.sink.apply.SynchronousCommit;
import dev.pglane.sink.decode.DecodeSettings;
import dev.pglane.sink.progress.ProgressStore;
import dev.pglane.sink.target.TableName;
import dev.pglane.wire.TopicNames;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The sink connector's configuration: every key with its doc and default, and typed accessors.
 * The {@code database.*} keys are shared with the source and live in {@link DatabaseSettings}; only
 * their sink-specific docs are here. Required keys have no {@code _DEFAULT}. Connect's own
 * {@code topics}/{@code topics.regex} are not defined here. docs/sink-config.md is generated from
 * {@link #CONFIG_DEF}.
 */
public final class PgSinkConfig extends AbstractConfig {
    static final String GROUP_CONNECTION = "Connection";
    static final String GROUP_INPUT = "Input";
    static final String GROUP_APPLY = "Apply";
    static final String GROUP_BUFFERING = "Buffering";
    static final String GROUP_PROGRESS = "Progress";
    static final String GROUP_TABLES = "Tables";

    static final String DATABASE_NAME_DOC = "Database to apply the changes to.";
    static final String DATABASE_USER_DOC = "Role to apply as. It needs to set session_replication_role (superuser,"
            + " or on PostgreSQL 15+ GRANT SET ON PARAMETER session_replication_role), write access to the target"
            + " tables, and what progress.store needs.";
    /** The database.* docs as the sink reads them: an applying role on the target server. */
    static final DatabaseSettings.Role DATABASE_ROLE =
            new DatabaseSettings.Role("target", DATABASE_NAME_DOC, DATABASE_USER_DOC);

    public static final String SOURCE_TOPIC_PREFIX = "source.topic.prefix";
    static final String SOURCE_TOPIC_PREFIX_DOC = "The topic.prefix of the pglane source whose changes this sink"
            + " applies. Its marker topic, <prefix>.transactions, tells the transaction boundaries and the commit"
            + " order, so topics or topics.regex must include it besides the change topics.";

    public static final String SOURCE_TOPIC_SINGLE_NAME = "source.topic.single.name";
    static final String SOURCE_TOPIC_SINGLE_NAME_DOC = "The source's single change topic when its topic.routing is"
            + " single (its topic.single.name, or <prefix>.changes). Empty: the source writes each table to its own"
            + " topic, and a record is applied only to the table whose topic it came on. A single topic carries every"
            + " table, so table.include.list must then name the tables this sink may write.";
    static final String SOURCE_TOPIC_SINGLE_NAME_DEFAULT = "";

    public static final String APPLY_WORKERS = "apply.workers";
    static final String APPLY_WORKERS_DOC = "Sessions that apply transactions at the same time. Transactions that"
            + " touch the same rows wait for each other, and all commit in source order. 1 applies serially.";
    static final int APPLY_WORKERS_DEFAULT = 4;

    public static final String APPLY_BATCH_MAX_ROWS = "apply.batch.max.rows";
    static final String APPLY_BATCH_MAX_ROWS_DOC =
            "Most rows of one table and operation sent to the target as one batched statement.";
    static final int APPLY_BATCH_MAX_ROWS_DEFAULT = 1000;

    public static final String APPLY_PIPELINE = "apply.pipeline";
    static final String APPLY_PIPELINE_DOC = "Send the statements of a target transaction to the target in one round"
            + " trip (pgjdbc pipelines a multi-statement prepared statement) instead of one round trip per"
            + " statement or batch, with a table's changes gathered across the other tables' changes and its updates"
            + " and deletes by key as one set statement. If a row does not fit (a conflict) or a statement fails, that transaction is"
            + " rolled back and applied again statement by statement, which applies conflict.policy and names the"
            + " record; the next 64 transactions then go statement by statement too.";
    static final boolean APPLY_PIPELINE_DEFAULT = true;

    public static final String APPLY_GROUP_MAX_TRANSACTIONS = "apply.group.max.transactions";
    static final String APPLY_GROUP_MAX_TRANSACTIONS_DOC = "Most consecutive source transactions applied as one"
            + " target transaction when they are ready together (at most 10,000 rows; large transactions stand"
            + " alone). Commits happen strictly in source order, one after the other, so small transactions"
            + " spend most of their time waiting to commit; a group commits once. Readers of the target still"
            + " see only committed source states, in order, but not the states inside a group. 1 applies each"
            + " source transaction as its own target transaction.";
    static final int APPLY_GROUP_MAX_TRANSACTIONS_DEFAULT = 32;

    public static final String APPLY_OVERLAP = "apply.overlap";
    static final String APPLY_OVERLAP_DOC = "Let a target transaction start once the transactions it depends on have"
            + " applied, before they commit: its statements wait on their row locks and go on the moment those commit,"
            + " so dependent transactions on several workers hide each other's round trips; a row it finds otherwise"
            + " than it expects sends it back to run after them. For a target behind a slow link: with 1 ms each way"
            + " it made 8 workers 1.38x faster on pgbench, but the rows that waited cost the target a third more CPU,"
            + " which made it slower on a near target (2 cores). Snapshot chunks, truncates and tables without a key"
            + " never start early.";

    public static final String CONFLICT_POLICY = "conflict.policy";
    static final String CONFLICT_POLICY_DOC = "When an insert finds its key taken, or an update or delete finds no"
            + " row: error (stop the task, naming transaction, table and key), skip (log, count and go on) or"
            + " upsert (insert or overwrite; a delete of a missing row is skipped).";
    static final String CONFLICT_POLICY_DEFAULT = EnumChoice.valueOf(ConflictPolicy.ERROR);
    static final EnumChoice<ConflictPolicy> CONFLICT_POLICIES = EnumChoice.of(ConflictPolicy.class);

    public static final String TRUNCATE_CASCADE = "truncate.cascade";
    static final String TRUNCATE_CASCADE_DOC = "Replay a source TRUNCATE ... CASCADE with CASCADE. Off, as with"
            + " PostgreSQL's subscriber, the truncate applies to the tables the source sent (the published tables its"
            + " CASCADE reached come in the same truncate) and fails, naming the table, if another target table"
            + " references one of them; on, it also empties every target table that references them, tables that"
            + " exist only on the target included.";
    static final boolean TRUNCATE_CASCADE_DEFAULT = false;

    public static final String SNAPSHOT_TARGET_PREPARE = "snapshot.target.prepare";
    static final String SNAPSHOT_TARGET_PREPARE_DOC = "What a snapshot that reads a source table whole does to its"
            + " target table first. none: each chunk overwrites its rows and deletes the rows of its key range it"
            + " does not hold. truncate: the table's first chunk empties it (TRUNCATE, or DELETE when another target"
            + " table references it; never cascading), so every chunk goes in by COPY: for initial loads into a"
            + " target that holds old rows. The table is then partly loaded until its last chunk, also during a"
            + " re-snapshot a signal starts; a filtered re-snapshot never empties it. Needs TRUNCATE (or DELETE) on"
            + " the target tables.";
    static final String SNAPSHOT_TARGET_PREPARE_DEFAULT = EnumChoice.valueOf(SnapshotTargetPrepare.NONE);
    static final EnumChoice<SnapshotTargetPrepare> SNAPSHOT_TARGET_PREPARES =
            EnumChoice.of(SnapshotTargetPrepare.class);

    public static final String SYNCHRONOUS_COMMIT = "synchronous.commit";
    static final String SYNCHRONOUS_COMMIT_DOC = "synchronous_commit of the apply sessions. off is safe: progress"
            + " commits with the changes, and one synchronous commit precedes each consumer offset commit.";
    static final String SYNCHRONOUS_COMMIT_DEFAULT = EnumChoice.valueOf(SynchronousCommit.OFF);
    static final EnumChoice<SynchronousCommit> SYNCHRONOUS_COMMITS = EnumChoice.of(SynchronousCommit.class);

    public static final String DEADLOCK_CHECK_INTERVAL_MS = "deadlock.check.interval.ms";
    static final String DEADLOCK_CHECK_INTERVAL_MS_DOC = "How often the sink looks for a worker that waits for a"
            + " lock held by a later transaction, which the commit order would never release; the later one is"
            + " rolled back and retried.";
    static final int DEADLOCK_CHECK_INTERVAL_MS_DEFAULT = 500;

    public static final String APPLY_LOCK_TIMEOUT_MS = "apply.lock.timeout.ms";
    static final String APPLY_LOCK_TIMEOUT_MS_DOC = "lock_timeout of the apply sessions: a statement that waits"
            + " longer for a lock held outside pglane (an open transaction on the target, a VACUUM FULL) is"
            + " cancelled and its transaction retried, up to apply.retry.max times. While the next transaction to"
            + " commit waits for such a lock, the sink logs the blocking session's pid, application, role, wait and"
            + " query id (never its SQL text). 0: no limit.";
    static final int APPLY_LOCK_TIMEOUT_MS_DEFAULT = 60_000;

    public static final String APPLY_STATEMENT_TIMEOUT_MS = "apply.statement.timeout.ms";
    static final String APPLY_STATEMENT_TIMEOUT_MS_DOC = "statement_timeout of the apply sessions; a statement"
            + " that runs longer is cancelled and its transaction retried, up to apply.retry.max times. PostgreSQL"
            + " arms a timer for every statement then, which costs the target a few percent of its CPU under small"
            + " transactions. 0: no limit. Reads of every sink session give up (the socket timeout) a minute after"
            + " it, or after ten minutes when it is 0, so a target that vanished without closing its connections is"
            + " noticed.";
    static final int APPLY_STATEMENT_TIMEOUT_MS_DEFAULT = 0;

    public static final String APPLY_RETRY_MAX = "apply.retry.max";
    static final String APPLY_RETRY_MAX_DOC =
            "Retries of a transaction after a transient failure (lost connection, serialization failure) before"
                    + " the task fails.";
    static final int APPLY_RETRY_MAX_DEFAULT = 10;

    public static final String RETRY_BACKOFF_MS = "retry.backoff.ms";
    static final String RETRY_BACKOFF_MS_DOC = "Wait before retrying after a transient failure.";
    static final int RETRY_BACKOFF_MS_DEFAULT = 1000;

    public static final String PROGRESS_STORE = "progress.store";
    static final String PROGRESS_STORE_DOC = "Where each applied transaction records the source position, in the"
            + " same commit: table (progress.table) or replication_origin (as PostgreSQL's subscriber does; the"
            + " role needs EXECUTE on the pg_replication_origin_* functions).";
    static final String PROGRESS_STORE_DEFAULT = EnumChoice.valueOf(ProgressStore.TABLE);
    static final EnumChoice<ProgressStore> PROGRESS_STORES = EnumChoice.of(ProgressStore.class);

    public static final String SEQUENCES_MARGIN = "sequences.margin";
    static final String SEQUENCES_MARGIN_DOC = "Added to every sequence value the source sends (sequences.interval.ms)"
            + " before the sink sets the target's sequence to it, forward only: values the source hands out between"
            + " its last look and a cut-over then cannot collide on the target.";

    public static final String APPLY_ORIGIN = "apply.origin";
    static final String APPLY_ORIGIN_DOC = "Apply under replication origins, as PostgreSQL's subscriber does, whatever"
            + " progress.store says: the target then tells the sink's changes from local ones, and a pglane source with"
            + " origin.filter=none (or a subscription with origin = none) on it leaves them out, which two-way"
            + " replication needs so that no change loops back. With the progress table, each session binds a free"
            + " origin of a pool the target's pglane sinks share (pglane:apply:<n>); every origin bound at once takes"
            + " one of the server's max_replication_slots. The role needs EXECUTE on pg_replication_origin_create and"
            + " pg_replication_origin_session_setup (a superuser has it); false: the sink's commits look local, unless"
            + " progress.store=replication_origin.";
    static final boolean APPLY_ORIGIN_DEFAULT = true;

    public static final String PROGRESS_TABLE = "progress.table";
    static final String PROGRESS_TABLE_DOC = "The progress table when progress.store is table; created when absent,"
            + " so the role needs CREATE on its schema, or SELECT, INSERT and UPDATE on an existing table.";
    static final String PROGRESS_TABLE_DEFAULT = "public.pglane_progress";

    public static final String TABLE_NAME_FORMAT = "table.name.format";
    static final String TABLE_NAME_FORMAT_DOC = "The target table of a source table: ${schema} and ${table} are"
            + " replaced by the source names. The default keeps them.";
    static final String TABLE_NAME_FORMAT_DEFAULT = "${schema}.${table}";

    public static final String TABLE_INCLUDE_LIST = "table.include.list";
    static final String TABLE_INCLUDE_LIST_DOC =
            "Source tables whose changes this sink applies: comma-separated regular"
                    + " expressions, each matched against the whole schema.table. A record of another table is refused (to"
                    + " the dead-letter queue when one is configured, otherwise the task stops naming it). Empty: every table"
                    + " whose change topic the sink subscribes to.";
    static final String TABLE_INCLUDE_LIST_DEFAULT = "";

    public static final String AUTO_CREATE = "auto.create";
    static final String AUTO_CREATE_DOC = "Create a missing target table from the source table's columns and key.";
    static final boolean AUTO_CREATE_DEFAULT = false;

    public static final String AUTO_EVOLVE = "auto.evolve";
    static final String AUTO_EVOLVE_DOC = "Add a column that the source table has and the target table lacks, widen a"
            + " column whose source type widened, and give a target table without a key the key its source table"
            + " gained (as its primary key; without this, a WARN names the statement).";
    static final boolean AUTO_EVOLVE_DEFAULT = false;

    private static final String IDENTIFIER = "[a-z_][a-z0-9_$]{0,62}";
    private static final NamePattern PROGRESS_TABLE_RULE = new NamePattern(
            "(" + IDENTIFIER + "\\.)?" + IDENTIFIER,
            "table or schema.table, each an unquoted PostgreSQL identifier (lower-case letters, digits, _ and $)");
    private static final NamePattern TABLE_NAME_FORMAT_RULE =
            new NamePattern(".*\\$\\{table}.*", "a name containing ${table}, and optionally ${schema}");
    private static final WireCheck TOPIC_PREFIX_RULE = new WireCheck(
            TopicNames::validatePrefix,
            "characters from a-z, A-Z, 0-9, '.', '_' and '-', short enough for the .transactions suffix");

    /** How much longer than a statement may run a read waits before the connection counts as lost. */
    private static final Duration SOCKET_TIMEOUT_MARGIN = Duration.ofMinutes(1);
    /** Without a statement timeout, what a read of the sink still waits for: no apply statement runs this long. */
    private static final Duration LONGEST_STATEMENT = Duration.ofMinutes(9);

    public static final ConfigDef CONFIG_DEF = configDef();

    public PgSinkConfig(Map<?, ?> props) {
        super(CONFIG_DEF, props);
    }

    /** The target, with reads bounded a minute past the statement timeout, or the longest statement expected. */
    public DatabaseEndpoint database() {
        Duration statements = applyStatementTimeout();
        Duration longest = statements.compareTo(LONGEST_STATEMENT) > 0 ? statements : LONGEST_STATEMENT;
        return DatabaseSettings.endpoint(this::get).withSocketTimeout(longest.plus(SOCKET_TIMEOUT_MARGIN));
    }

    public Duration applyLockTimeout() {
        return Duration.ofMillis(getInt(APPLY_LOCK_TIMEOUT_MS));
    }

    public Duration applyStatementTimeout() {
        return Duration.ofMillis(getInt(APPLY_STATEMENT_TIMEOUT_MS));
    }

    /** The source's topic prefix: it names the source server in the progress store. */
    public String sourceTopicPrefix() {
        return getString(SOURCE_TOPIC_PREFIX);
    }

    /** The source's marker topic, which the sink must consume besides the change topics. */
    public String markerTopic() {
        return sourceTopics().transactionsTopic();
    }

    /** The source's topics: per table, or the single change topic the sink was told of. */
    public TopicNames sourceTopics() {
        String single = getString(SOURCE_TOPIC_SINGLE_NAME);
        return single.isEmpty()
                ? DecodeSettings.SOURCE_FORMATS
                        .parse(getString(DecodeSettings.SOURCE_FORMAT))
                        .perTable(sourceTopicPrefix())
                : TopicNames.singleTopic(sourceTopicPrefix(), single);
    }

    /** The topics this sink consumes, from the {@code topics} or {@code topics.regex} Connect passes to the task. */
    public ConsumedTopics consumedTopics() {
        return ConsumedTopics.of(originalsStrings());
    }

    public TableIncludeList tableIncludeList() {
        return new TableIncludeList(getList(TABLE_INCLUDE_LIST));
    }

    public int applyGroupMaxTransactions() {
        return getInt(APPLY_GROUP_MAX_TRANSACTIONS);
    }

    public boolean applyPipeline() {
        return getBoolean(APPLY_PIPELINE);
    }

    public int applyWorkers() {
        return getInt(APPLY_WORKERS);
    }

    public int applyBatchMaxRows() {
        return getInt(APPLY_BATCH_MAX_ROWS);
    }

    public ConflictPolicy conflictPolicy() {
        return CONFLICT_POLICIES.parse(getString(CONFLICT_POLICY));
    }

    public boolean truncateCascade() {
        return getBoolean(TRUNCATE_CASCADE);
    }

    public SnapshotTargetPrepare snapshotTargetPrepare() {
        return SNAPSHOT_TARGET_PREPARES.parse(getString(SNAPSHOT_TARGET_PREPARE));
    }

    public SynchronousCommit synchronousCommit() {
        return SYNCHRONOUS_COMMITS.parse(getString(SYNCHRONOUS_COMMIT));
    }

    public Duration deadlockCheckInterval() {
        return Duration.ofMillis(getInt(DEADLOCK_CHECK_INTERVAL_MS));
    }

    public boolean applyOverlap() {
        return getBoolean(APPLY_OVERLAP);
    }

    public int applyRetryMax() {
        return getInt(APPLY_RETRY_MAX);
    }

    public Duration retryBackoff() {
        return Duration.ofMillis(getInt(RETRY_BACKOFF_MS));
    }

    public Duration transactionWaitWarn() {
        return Duration.ofMillis(getInt(BufferingSettings.TRANSACTION_WAIT_WARN_MS));
    }

    public long bufferMaxBytes() {
        return getLong(BufferingSettings.BUFFER_MAX_BYTES);
    }

    public int bufferMaxTransactions() {
        return getInt(BufferingSettings.BUFFER_MAX_TRANSACTIONS);
    }

    /**
     * The spill directory, shared by connectors: each keeps its files in a subdirectory of its own
     * ({@link dev.pglane.sink.assemble.SpillArea}). By default in the worker user's home, not in a temporary
     * directory every local user may write to.
     */
    public Path spillDirectory() {
        String configured = getString(BufferingSettings.SPILL_DIRECTORY);
        return configured.isEmpty()
                ? Path.of(System.getProperty("user.home"), ".pglane", "spill")
                : Path.of(configured);
    }

    public long spillMaxBytes() {
        return getLong(BufferingSettings.SPILL_MAX_BYTES);
    }

    /** The progress store, from a parsed config or from the values of a validation. */
    public static ProgressStore progressStore(Function<String, Object> parsed) {
        return PROGRESS_STORES.parse((String) parsed.apply(PROGRESS_STORE));
    }

    /** The progress table, from a parsed config or from the values of a validation. */
    public static TableName progressTable(Function<String, Object> parsed) {
        return TableName.parse((String) parsed.apply(PROGRESS_TABLE));
    }

    public ProgressStore progressStore() {
        return progressStore(this::get);
    }

    public long sequencesMargin() {
        return getLong(SEQUENCES_MARGIN);
    }

    /** Whether the apply sessions write under replication origins, for {@code apply.origin} or as the progress store. */
    public boolean appliesUnderOrigin() {
        return progressStore() == ProgressStore.REPLICATION_ORIGIN || getBoolean(APPLY_ORIGIN);
    }

    public TableName progressTable() {
        return progressTable(this::get);
    }

    public String tableNameFormat() {
        return getString(TABLE_NAME_FORMAT);
    }

    public boolean autoCreate() {
        return getBoolean(AUTO_CREATE);
    }

    public boolean autoEvolve() {
        return getBoolean(AUTO_EVOLVE);
    }

    private static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        DatabaseSettings.define(new ConfigGroup(def, GROUP_CONNECTION), DATABASE_ROLE);
        ConfigGroup input = new ConfigGroup(def, GROUP_INPUT);
        input.key(SOURCE_TOPIC_PREFIX, "Source topic prefix", Width.MEDIUM)
                .define(STRING, NO_DEFAULT_VALUE, TOPIC_PREFIX_RULE, HIGH, SOURCE_TOPIC_PREFIX_DOC);
        input.key(SOURCE_TOPIC_SINGLE_NAME, "Source single topic", Width.MEDIUM)
                .define(
                        STRING,
                        SOURCE_TOPIC_SINGLE_NAME_DEFAULT,
                        NamePattern.OPTIONAL_TOPIC_NAME,
                        LOW,
                        SOURCE_TOPIC_SINGLE_NAME_DOC);
        DecodeSettings.define(input);
        TableGroupSettings.define(input);
        defineApply(new ConfigGroup(def, GROUP_APPLY));
        BufferingSettings.define(new ConfigGroup(def, GROUP_BUFFERING));
        defineProgress(new ConfigGroup(def, GROUP_PROGRESS));
        defineTables(new ConfigGroup(def, GROUP_TABLES));
        return def;
    }

    private static void defineApply(ConfigGroup group) {
        group.key(APPLY_WORKERS, "Apply workers", Width.SHORT)
                .define(INT, APPLY_WORKERS_DEFAULT, Range.between(1, 64), HIGH, APPLY_WORKERS_DOC);
        group.key(APPLY_BATCH_MAX_ROWS, "Rows per batch", Width.SHORT)
                .define(INT, APPLY_BATCH_MAX_ROWS_DEFAULT, Range.atLeast(1), LOW, APPLY_BATCH_MAX_ROWS_DOC);
        group.key(APPLY_PIPELINE, "Pipelined statements", Width.SHORT)
                .define(BOOLEAN, APPLY_PIPELINE_DEFAULT, null, MEDIUM, APPLY_PIPELINE_DOC);
        group.key(APPLY_GROUP_MAX_TRANSACTIONS, "Transactions per target transaction", Width.SHORT)
                .define(
                        INT,
                        APPLY_GROUP_MAX_TRANSACTIONS_DEFAULT,
                        Range.atLeast(1),
                        MEDIUM,
                        APPLY_GROUP_MAX_TRANSACTIONS_DOC);
        group.key(SEQUENCES_MARGIN, "Sequence margin", Width.SHORT)
                .define(LONG, 0L, Range.atLeast(0L), LOW, SEQUENCES_MARGIN_DOC);
        group.key(APPLY_OVERLAP, "Overlapping transactions", Width.SHORT)
                .define(BOOLEAN, false, null, MEDIUM, APPLY_OVERLAP_DOC);
        group.key(CONFLICT_POLICY, "Conflict policy", Width.SHORT)
                .define(STRING, CONFLICT_POLICY_DEFAULT, CONFLICT_POLICIES, HIGH, CONFLICT_POLICY_DOC);
        group.key(TRUNCATE_CASCADE, "Cascade truncates", Width.SHORT)
                .define(BOOLEAN, TRUNCATE_CASCADE_DEFAULT, null, MEDIUM, TRUNCATE_CASCADE_DOC);
        group.key(SYNCHRONOUS_COMMIT, "Synchronous commit", Width.SHORT)
                .define(STRING, SYNCHRONOUS_COMMIT_DEFAULT, SYNCHRONOUS_COMMITS, MEDIUM, SYNCHRONOUS_COMMIT_DOC);
        group.key(DEADLOCK_CHECK_INTERVAL_MS, "Deadlock check interval (ms)", Width.SHORT)
                .define(INT, DEADLOCK_CHECK_INTERVAL_MS_DEFAULT, Range.atLeast(1), LOW, DEADLOCK_CHECK_INTERVAL_MS_DOC);
        group.key(APPLY_LOCK_TIMEOUT_MS, "Lock timeout (ms)", Width.SHORT)
                .define(INT, APPLY_LOCK_TIMEOUT_MS_DEFAULT, Range.atLeast(0), MEDIUM, APPLY_LOCK_TIMEOUT_MS_DOC);
        group.key(APPLY_STATEMENT_TIMEOUT_MS, "Statement timeout (ms)", Width.SHORT)
                .define(
                        INT,
                        APPLY_STATEMENT_TIMEOUT_MS_DEFAULT,
                        Range.atLeast(0),
                        MEDIUM,
                        APPLY_STATEMENT_TIMEOUT_MS_DOC);
        group.key(APPLY_RETRY_MAX, "Retries per transaction", Width.SHORT)
                .define(INT, APPLY_RETRY_MAX_DEFAULT, Range.atLeast(0), MEDIUM, APPLY_RETRY_MAX_DOC);
        group.key(RETRY_BACKOFF_MS, "Retry backoff (ms)", Width.SHORT)
                .define(INT, RETRY_BACKOFF_MS_DEFAULT, Range.atLeast(0), LOW, RETRY_BACKOFF_MS_DOC);
    }

    private static void defineProgress(ConfigGroup group) {
        group.key(PROGRESS_STORE, "Progress store", Width.SHORT)
                .define(STRING, PROGRESS_STORE_DEFAULT, PROGRESS_STORES, MEDIUM, PROGRESS_STORE_DOC);
        group.key(APPLY_ORIGIN, "Apply under a replication origin", Width.SHORT)
                .define(BOOLEAN, APPLY_ORIGIN_DEFAULT, null, MEDIUM, APPLY_ORIGIN_DOC);
        group.key(PROGRESS_TABLE, "Progress table", Width.MEDIUM)
                .define(STRING, PROGRESS_TABLE_DEFAULT, PROGRESS_TABLE_RULE, MEDIUM, PROGRESS_TABLE_DOC);
    }

    private static void defineTables(ConfigGroup group) {
        group.key(TABLE_INCLUDE_LIST, "Tables", Width.LONG)
                .define(LIST, TABLE_INCLUDE_LIST_DEFAULT, new RegexList(), HIGH, TABLE_INCLUDE_LIST_DOC);
        group.key(TABLE_NAME_FORMAT, "Table name format", Width.MEDIUM)
                .define(STRING, TABLE_NAME_FORMAT_DEFAULT, TABLE_NAME_FORMAT_RULE, MEDIUM, TABLE_NAME_FORMAT_DOC);
        group.key(AUTO_CREATE, "Create missing tables", Width.SHORT)
                .define(BOOLEAN, AUTO_CREATE_DEFAULT, null, MEDIUM, AUTO_CREATE_DOC);
        group.key(AUTO_EVOLVE, "Add missing columns", Width.SHORT)
                .define(BOOLEAN, AUTO_EVOLVE_DEFAULT, null, MEDIUM, AUTO_EVOLVE_DOC);
        group.key(SNAPSHOT_TARGET_PREPARE, "Before a whole-table snapshot", Width.SHORT)
                .define(
                        STRING,
                        SNAPSHOT_TARGET_PREPARE_DEFAULT,
                        SNAPSHOT_TARGET_PREPARES,
                        MEDIUM,
                        SNAPSHOT_TARGET_PREPARE_DOC);
        TriggerSettings.define(group);
    }
}
