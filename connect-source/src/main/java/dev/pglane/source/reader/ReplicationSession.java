package dev.pglane.source.reader;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.source.ColumnSettings;
import dev.pglane.source.PgSourceConfig;
import dev.pglane.source.SnapshotMode;
import dev.pglane.source.SnapshotSettings;
import dev.pglane.source.capture.TableCapture;
import dev.pglane.source.decode.DecoderLanes;
import dev.pglane.source.decode.LaneActivity;
import dev.pglane.source.decode.RecordEncoding;
import dev.pglane.source.decode.RecordFactory;
import dev.pglane.source.decode.RecordKeys;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.emit.OrderedEmitter;
import dev.pglane.source.housekeeping.SlotRetentionWatch;
import dev.pglane.source.offset.AckTracker;
import dev.pglane.source.pace.SnapshotPace;
import dev.pglane.source.pgoutput.ProtocolVersion;
import dev.pglane.source.schema.RelationCache;
import dev.pglane.source.schema.RelationDescriptorFactory;
import dev.pglane.source.seal.MessageSeal;
import dev.pglane.source.snapshot.SnapshotProgress;
import dev.pglane.source.snapshot.SnapshotReadSettings;
import dev.pglane.source.snapshot.SnapshotRunner;
import dev.pglane.source.snapshot.SnapshotStream;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.postgresql.replication.PGReplicationStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replication session: a replication connection, its reader thread, the decoder lanes and the
 * emitter, from START marker to close. A lost connection ends the session; the task then opens a new
 * one with a greater generation. The plain SQL connection opened for set-up stays open for the type
 * catalog, which the reader consults when a Relation message names a non-built-in type.
 */
public final class ReplicationSession implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ReplicationSession.class);
    /** Longest {@link #close()} waits for the threads in all; they normally stop in milliseconds. */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(2);
    /** How long the reader gets to leave the stream alone before its socket is dropped under it. */
    private static final Duration READER_STOP_TIMEOUT = Duration.ofMillis(500);
    /** Least time a read of the plain SQL connection may wait once the session streams. */
    private static final Duration SQL_READ_TIMEOUT_FLOOR = Duration.ofSeconds(10);

    /**
     * How a session starts.
     *
     * @param resumeLsn the stored {@code commit_end_lsn}, or {@code null} to start at the slot's position
     * @param snapshot the snapshot to run while streaming
     * @param tables the captured tables the stored offset carries ({@code snapshot.new.tables}), or {@code null}
     * @param seal the connector's seal on the messages that steer it
     * @param pace what the snapshot's new chunks wait for
     */
    public record Start(
            String connectorName,
            String version,
            long generation,
            Lsn resumeLsn,
            Snapshot snapshot,
            String tables,
            MessageSeal seal,
            SnapshotPace pace) {}

    /**
     * Which snapshot a session runs.
     *
     * @param begin start a new snapshot of every captured table
     * @param progress the progress of the snapshot to continue; {@code null} with {@code begin} false: none
     */
    public record Snapshot(boolean begin, SnapshotProgress progress) {
        public static final Snapshot NONE = new Snapshot(false, null);

        boolean runs() {
            return begin || progress != null;
        }

        SnapshotRunner plan(SnapshotReadSettings settings, Connection sql, PgSourceConfig config, FailureSlot failures)
                throws SQLException {
            return SnapshotRunner.plan(settings, begin ? null : progress, sql, config.publicationName(), failures);
        }
    }

    /** The metrics hooks of a session. */
    public record Activity(ReaderActivity reader, LaneActivity lanes) {}

    private final Connection sql;
    private final ReplicationConnection replication;
    private final DecoderLanes lanes;
    private final ReplicationReader reader;
    private final Thread readerThread;
    private final OrderedEmitter emitter;
    private final Lsn resumeLsn;
    /** The snapshot the session started with, or {@code null}. */
    private final SnapshotRunner snapshot;
    /** The reader's side of the snapshots, which signals may start. */
    private final SnapshotStream snapshots;
    /** The session's own background watches, closed with it. */
    private final SessionWatches watches;

    private ReplicationSession(
            Connection sql,
            ReplicationConnection replication,
            DecoderLanes lanes,
            ReplicationReader reader,
            Thread readerThread,
            OrderedEmitter emitter,
            Lsn resumeLsn,
            SnapshotRunner snapshot,
            SnapshotStream snapshots,
            SessionWatches watches) {
        this.snapshot = snapshot;
        this.snapshots = snapshots;
        this.watches = watches;
        this.sql = sql;
        this.replication = replication;
        this.lanes = lanes;
        this.reader = reader;
        this.readerThread = readerThread;
        this.emitter = emitter;
        this.resumeLsn = resumeLsn;
    }

    /**
     * Sets up publication and slot when absent, starts streaming at the resume LSN and starts the threads.
     *
     * @throws SQLException if the server cannot be reached or a set-up statement fails
     * @throws ConnectException if the server or the slot cannot serve this connector
     */
    public static ReplicationSession open(
            PgSourceConfig config, Start start, AckTracker acks, EnvelopeSchemas envelopes, Activity activity)
            throws SQLException {
        DatabaseEndpoint endpoint = config.database();
        Connection sql = endpoint.connect("pglane-" + start.connectorName() + "-setup");
        try {
            ServerVersion server = ServerVersion.of(sql);
            PublicationSetup.ensure(sql, config);
            boolean whenNeeded = config.snapshotMode() == SnapshotMode.WHEN_NEEDED;
            boolean failoverOffered = FailoverSlot.offered(sql);
            SlotSetup.Slot slot = ensureSlot(sql, config, start, failoverOffered);
            // a slot created again over the stored offset starts after it; the snapshot sends every row again
            Snapshot plan = slot.recreatedOverOffset() && whenNeeded ? new Snapshot(true, null) : start.snapshot();
            Lsn resume =
                    start.resumeLsn() != null && !slot.recreatedOverOffset() ? start.resumeLsn() : slot.confirmed();
            FailureSlot failures = new FailureSlot();
            // before the snapshot's plan: a table that joins in between is then snapshotted twice, never missed
            TableCapture capture = config.snapshotNewTables()
                    ? TableCapture.atStart(config, start.connectorName(), start.tables(), start.seal(), sql)
                    : null;
            SnapshotReadSettings snapshotSettings = snapshotSettings(config, start);
            SnapshotRunner snapshot = plan.runs() ? plan.plan(snapshotSettings, sql, config, failures) : null;
            ReplicationConnection replication =
                    ReplicationConnection.open(endpoint, "pglane-" + start.connectorName() + "-reader");
            PGReplicationStream stream;
            try {
                if (failoverOffered) {
                    FailoverSlot.align(sql, replication, config.slotName(), slot, config.slotFailover());
                }
                stream = replication.start(new ReplicationConnection.StreamRequest(
                        config.slotName(),
                        config.publicationName(),
                        server.protocol(),
                        config.messageFilter().requested()
                                || snapshot != null
                                || config.signalsEnabled()
                                || capture != null,
                        config.streamingMode() == StreamingMode.ON,
                        config.originFilter(),
                        config.statusInterval(),
                        resume));
            } catch (SQLException | RuntimeException e) {
                replication.abort();
                throw e;
            }
            ReplicationSession session = assemble(
                    config,
                    start,
                    acks,
                    envelopes,
                    activity,
                    new Opened(sql, replication, stream, server, resume),
                    failures,
                    new SessionSnapshot(snapshot, snapshotSettings, capture));
            if (snapshot != null) {
                try {
                    snapshot.start();
                } catch (SQLException | RuntimeException e) {
                    session.close();
                    throw e;
                }
            }
            log.info(
                    "pglane source {} streaming from PostgreSQL {} at {} (system {}, timeline {}, pgoutput protocol"
                            + " {}): slot {}, publication {}, {} decoder lanes, resume LSN {}, generation {}, streaming {}",
                    start.connectorName(),
                    server.text(),
                    endpoint.address(),
                    replication.identity().systemId(),
                    replication.identity().timeline(),
                    server.protocol().number(),
                    config.slotName(),
                    config.publicationName(),
                    config.decoderLanes(),
                    resume,
                    start.generation(),
                    config.streamingMode().name().toLowerCase(Locale.ROOT));
            return session;
        } catch (SQLException | RuntimeException e) {
            closeQuietly(sql);
            throw e;
        }
    }

    /**
     * The snapshot a session starts with ({@code null}: none), how the session's snapshots read, and the captured
     * tables ({@code null}: not tracked).
     */
    private record SessionSnapshot(SnapshotRunner initial, SnapshotReadSettings settings, TableCapture capture) {}

    /** What {@link #open} has set up when it assembles the session. */
    private record Opened(
            Connection sql,
            ReplicationConnection replication,
            PGReplicationStream stream,
            ServerVersion server,
            Lsn resume) {}

    /** How this session's snapshots read: the initial one and any a signal starts. */
    private static SnapshotReadSettings snapshotSettings(PgSourceConfig config, Start start) {
        return new SnapshotReadSettings(
                start.connectorName(),
                start.seal(),
                start.generation(),
                config.snapshotThreads(),
                config.snapshotChunkRows(),
                config.snapshotChunkBytes(),
                config.getLong(SnapshotSettings.SNAPSHOT_KEYLESS_MAX_BYTES),
                config.database(),
                new AtomicLong(),
                config.signalTable(),
                start.pace());
    }

    /** The lanes that turn the reader's items into records, as the config wants them written. */
    private static DecoderLanes decoderLanes(
            PgSourceConfig config,
            Start start,
            TopicNames topics,
            EnvelopeSchemas envelopes,
            FailureSlot failures,
            Activity activity) {
        RecordFactory records = new RecordFactory(
                start.version(),
                config.database().database(),
                topics,
                envelopes,
                RecordEncoding.of(config.payloadFormat(), config.avroSettings()),
                new RecordKeys(config.recordKey(), config.tombstonesOnDelete()));
        return new DecoderLanes(
                start.connectorName(),
                config.decoderLanes(),
                config.decoderQueueCapacity(),
                records,
                failures,
                activity.lanes());
    }

    private static ReplicationSession assemble(
            PgSourceConfig config,
            Start start,
            AckTracker acks,
            EnvelopeSchemas envelopes,
            Activity activity,
            Opened opened,
            FailureSlot failures,
            SessionSnapshot sessionSnapshot) {
        SnapshotRunner snapshot = sessionSnapshot.initial();
        Connection sql = opened.sql();
        ReplicationConnection replication = opened.replication();
        Lsn resume = opened.resume();
        // the reader's liveness check and type lookups run on this connection: neither may hang on a dead server
        boundReads(sql, config.statusInterval());
        TopicNames topics = config.topicNames();
        RelationCache relations = new RelationCache(RelationDescriptorFactory.reading(
                sql, topics, config.valueMappings(), envelopes, config.recordKey(), ColumnSettings.rules(config)));
        DecoderLanes lanes = decoderLanes(config, start, topics, envelopes, failures, activity);
        OrderedEmitter emitter = new OrderedEmitter(lanes, failures, acks);
        SnapshotStream snapshots = new SnapshotStream(
                start.seal(),
                config.signalKafkaTopic() != null,
                start.generation(),
                snapshot,
                config.signalTable(),
                progress -> {
                    SnapshotRunner started = SnapshotRunner.plan(
                            sessionSnapshot.settings(), progress, sql, config.publicationName(), failures);
                    if (started != null) {
                        started.start();
                    }
                    return started;
                },
                sessionSnapshot.capture());
        ReplicationReader.Settings settings = new ReplicationReader.Settings(
                config.database().address(),
                replication.identity(),
                opened.server().protocol(),
                start.generation(),
                resume,
                config.markerBeginEnabled(),
                config.messageFilter(),
                config.originFilter(),
                topics.messagesTopic(),
                config.decoderBatchSize(),
                config.statusInterval(),
                config.heartbeatInterval().orElse(Duration.ZERO),
                start.seal());
        ReplicationReader reader = new ReplicationReader(
                settings,
                opened.stream(),
                relations,
                lanes,
                acks,
                emitter::emitted,
                failures,
                activity.reader(),
                new SlotLiveness(sql, config.slotName(), replication.walsenderPid()),
                snapshots);
        Thread readerThread = new Thread(reader, "pglane-" + start.connectorName() + "-reader");
        readerThread.setDaemon(true);
        lanes.start();
        readerThread.start();
        SessionWatches watches = SessionWatches.start(
                config, start.connectorName(), sessionSnapshot.capture(), start.seal(), sql, failures);
        return new ReplicationSession(
                sql, replication, lanes, reader, readerThread, emitter, resume, snapshot, snapshots, watches);
    }

    /** The next records in stream order; see {@link OrderedEmitter#poll}. */
    public List<SourceRecord> poll(int maxRecords, Duration maxWait) throws InterruptedException {
        return emitter.poll(maxRecords, maxWait);
    }

    /** True if this session runs a snapshot. */
    public boolean snapshots() {
        return snapshot != null;
    }

    /** Where this session's snapshot stands, or {@code null} when it runs none. */
    public SnapshotRunner.Standing snapshotStanding() {
        return snapshots.standing();
    }

    /** Where this session started replication. */
    public Lsn resumeLsn() {
        return resumeLsn;
    }

    /** The source offset of the last record handed to Connect, or {@code null} before the first. */
    public Map<String, ?> lastOffset() {
        return emitter.lastOffset();
    }

    public ReplicationReader reader() {
        return reader;
    }

    public DecoderLanes lanes() {
        return lanes;
    }

    /** How much WAL the slot holds back, as the session last looked. */
    public SlotRetentionWatch slotRetention() {
        return watches.slotRetention();
    }

    /**
     * Stops the reader and the lanes and drops both connections, in well under Connect's
     * {@code task.shutdown.graceful.timeout.ms} (5 s): until this session lets go of the slot, the next
     * task cannot start replication. Safe to call from any thread, also while {@link #poll} runs (it
     * then returns what it has).
     *
     * <p>The replication socket is dropped, not closed politely: pgjdbc's polite close sends CopyDone and
     * then reads on until the server ends the stream, which it does only after sending the rest of the
     * transaction it is decoding, however large. Dropping it loses nothing, because the slot was only
     * ever confirmed up to ENDs Kafka acknowledged; the walsender notices at its next write and frees
     * the slot.
     */
    @Override
    public void close() {
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        watches.close();
        snapshots.close();
        reader.stop();
        // Wakes the reader from its park or its wait on a full lane at once, rather than after the slice.
        readerThread.interrupt();
        join(readerThread, READER_STOP_TIMEOUT.toNanos());
        // Also ends a read of the stream the reader may still be blocked in.
        replication.abort();
        join(readerThread, deadline - System.nanoTime());
        if (readerThread.isAlive()) {
            log.warn("The replication reader did not stop within {} ms", STOP_TIMEOUT.toMillis());
        }
        lanes.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        closeQuietly(sql);
    }

    private static void boundReads(Connection sql, Duration statusInterval) {
        long millis = Math.max(
                SQL_READ_TIMEOUT_FLOOR.toMillis(),
                statusInterval.toMillis() * ReplicationReader.QUIET_INTERVALS_BEFORE_CHECK);
        try {
            sql.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, millis));
        } catch (SQLException e) {
            throw new ConnectException("Cannot bound the reads of the source connection: " + e.getMessage(), e);
        }
    }

    private static void join(Thread thread, long timeoutNanos) {
        if (timeoutNanos <= 0) {
            return;
        }
        try {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Nothing more to release.
        }
    }

    /** The slot, created (a failover slot where the server offers one and slot.failover wants it) if missing. */
    private static SlotSetup.Slot ensureSlot(
            Connection sql, PgSourceConfig config, Start start, boolean failoverOffered) throws SQLException {
        return SlotSetup.ensure(
                sql,
                config.slotName(),
                start.resumeLsn(),
                config.slotRecreate(),
                start.connectorName(),
                config.snapshotMode() == SnapshotMode.WHEN_NEEDED,
                failoverOffered && config.slotFailover());
    }

    /** The server's version and the pgoutput protocol version it gets. */
    private record ServerVersion(String text, ProtocolVersion protocol) {
        static ServerVersion of(Connection sql) throws SQLException {
            try (Statement st = sql.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT pg_catalog.current_setting('server_version'), pg_catalog.current_setting('server_version_num')::int")) {
                rs.next();
                try {
                    return new ServerVersion(rs.getString(1), ProtocolVersion.forServer(rs.getInt(2)));
                } catch (IllegalArgumentException e) {
                    throw new ConnectException(e.getMessage(), e);
                }
            }
        }
    }
}
