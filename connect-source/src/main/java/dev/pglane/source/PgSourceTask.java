package dev.pglane.source;

import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.source.emit.KafkaTransactionBoundaries;
import dev.pglane.source.offset.AckTracker;
import dev.pglane.source.offset.MarkerPlacement;
import dev.pglane.source.pace.GroupLagWatch;
import dev.pglane.source.pace.SnapshotPace;
import dev.pglane.source.reader.ReplicationSession;
import dev.pglane.source.seal.MessageSeal;
import dev.pglane.source.signal.KafkaSignalChannel;
import dev.pglane.source.snapshot.SnapshotProgress;
import dev.pglane.source.validate.ConverterRules;
import dev.pglane.source.validate.DeliveryRules;
import dev.pglane.source.validate.ExactlyOnceRules;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.WireFormatException;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source task: one replication session at a time (reader, decoder lanes, emitter), its records
 * handed out by {@link #poll()}, their acknowledgements turned into slot confirmations.
 *
 * <p>A lost connection ends the session: {@code poll()} throws {@link RetriableException} once, and a
 * later {@code poll()}, after a backoff that doubles up to {@code reconnect.backoff.max.ms}, opens a new
 * session with a greater generation, resuming at the last END it emitted. Every other failure is a
 * {@link ConnectException}, which fails the task so Connect shows it.
 */
public final class PgSourceTask extends SourceTask {
    private static final Logger log = LoggerFactory.getLogger(PgSourceTask.class);
    /** Longest a poll() waits for records: short, so Connect can commit offsets and stop promptly. */
    private static final Duration POLL_WAIT = Duration.ofMillis(100);

    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private final AckTracker acks = new AckTracker();
    private final EnvelopeSchemas envelopes = new EnvelopeSchemas();

    private PgSourceConfig config;
    private String connectorName;
    /** Seals the messages that steer the connector; the same in every session, so each opens the earlier ones'. */
    private MessageSeal seal;

    private PgSourceMetrics metrics;
    private volatile ReplicationSession session;
    /** Reads the signal topic, when there is one. */
    private volatile KafkaSignalChannel signals;
    /** Ends Kafka transactions between database transactions ({@code transaction.boundary=connector}); or null. */
    private KafkaTransactionBoundaries boundaries;
    /** Paces the snapshot by the sink's consumer group ({@code snapshot.pace.group}); null when nothing does. */
    private volatile GroupLagWatch pace;

    private volatile boolean stopping;

    /** The generation of the latest session, or of the stored offset before the first; -1 if neither. */
    private long lastGeneration = -1;
    /** Where the next session resumes; {@code null}: at the slot's confirmed position. */
    private Lsn resumeLsn;
    /** The captured tables the next session starts with ({@code snapshot.new.tables}); {@code null}: none stored. */
    private String capturedTables;
    /** The snapshot the next session runs. */
    private ReplicationSession.Snapshot snapshot = ReplicationSession.Snapshot.NONE;
    /** {@code snapshot.mode=initial_only} and the snapshot is out: the task streams no more. */
    private boolean streamingStopped;

    private Duration backoff;
    private long reconnectAtNanos;
    /**
     * A record Connect reported done without storing it, or a marker stored outside the marker topic's one partition;
     * poll() fails the task with it.
     */
    private final AtomicReference<ConnectException> deliveryFailure = new AtomicReference<>();
    /** {@code <prefix>.transactions}, where {@link MarkerPlacement} checks each marker's partition. */
    private String markerTopic;

    @Override
    public String version() {
        return PgSourceConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        config = new PgSourceConfig(props);
        connectorName = props.getOrDefault("name", "source");
        List<ConfigProblem> refused = new ArrayList<>(DeliveryRules.problems(props));
        refused.addAll(ConverterRules.problems(config.payloadFormat(), props));
        refused.addAll(ExactlyOnceRules.problems(props));
        if (!refused.isEmpty()) {
            throw new ConnectException("pglane source " + connectorName + " cannot run with this config: "
                    + refused.stream().map(ConfigProblem::message).collect(Collectors.joining("; ")));
        }
        backoff = config.reconnectBackoffInitial();
        markerTopic = config.topicNames().transactionsTopic();
        if (context.transactionContext() != null) {
            boundaries = new KafkaTransactionBoundaries(context.transactionContext(), acks, connectorName);
        }
        SourceOffset stored = storedOffset();
        if (stored != null) {
            lastGeneration = stored.generation();
            resumeLsn = stored.commitEndLsn();
            capturedTables = stored.tables();
        }
        snapshot = firstSnapshot(stored);
        seal = messageSeal(stored);
        metrics = PgSourceMetrics.create(
                context, "pglane source " + connectorName, config.decoderLanes(), seal.refused());
        if (config.snapshotMode() == SnapshotMode.INITIAL_ONLY && stored != null && stored.snapshot() == null) {
            stopStreaming("its initial snapshot was sent before this start");
            return;
        }
        if (config.signalKafkaTopic() != null) {
            signals = KafkaSignalChannel.start(new KafkaSignalChannel.Settings(
                    connectorName,
                    seal,
                    config.signalKafkaTopic(),
                    config.signalKafkaBootstrapServers(),
                    config.signalConsumerSettings(),
                    config.database()));
        }
        GroupLagWatch.Settings paced = PaceSettings.read(config, connectorName);
        if (paced != null) {
            pace = GroupLagWatch.start(paced);
        }
        try {
            openSession();
        } catch (RetriableException e) {
            scheduleReconnect(e);
        }
    }

    /**
     * A connector without offsets snapshots unless told never to; one with offsets continues the snapshot they
     * record, if any. A connector upgraded from a version without snapshots has offsets and so does not snapshot.
     */
    private ReplicationSession.Snapshot firstSnapshot(SourceOffset stored) {
        SnapshotMode mode = config.snapshotMode();
        if (stored == null) {
            return mode == SnapshotMode.NEVER
                    ? ReplicationSession.Snapshot.NONE
                    : new ReplicationSession.Snapshot(true, null);
        }
        if (stored.snapshot() == null) {
            return ReplicationSession.Snapshot.NONE;
        }
        SnapshotProgress progress;
        try {
            progress = SnapshotProgress.parse(stored.snapshot());
        } catch (IllegalArgumentException e) {
            throw new ConnectException(
                    "The stored source offset of " + config.topicPrefix() + " has a snapshot"
                            + " progress this version cannot read: " + e.getMessage(),
                    e);
        }
        if (mode == SnapshotMode.NEVER) {
            log.warn(
                    "pglane source {}: snapshot {} is unfinished, and snapshot.mode=never leaves it so: the rows of"
                            + " tables {} it has not sent will not reach Kafka",
                    connectorName,
                    progress.snapshotId(),
                    progress.unfinishedTables());
            return ReplicationSession.Snapshot.NONE;
        }
        return new ReplicationSession.Snapshot(false, progress);
    }

    /**
     * The seal of the messages that steer the connector: keyed by {@code wal.messages.key}, or by the key the stored
     * offset keeps, or by a new one, which the offsets keep from this run's first record on.
     */
    private MessageSeal messageSeal(SourceOffset stored) {
        String configured = config.walMessagesKey();
        if (configured != null) {
            return MessageSeal.configured(config.topicPrefix(), configured);
        }
        if (stored != null && stored.messageKey() != null) {
            try {
                return MessageSeal.kept(config.topicPrefix(), stored.messageKey());
            } catch (IllegalArgumentException e) {
                throw new ConnectException("The stored source offset of " + config.topicPrefix() + " has a message"
                        + " key this version cannot read; set wal.messages.key, or reset the connector's offsets");
            }
        }
        if (stored != null) {
            log.info(
                    "pglane source {} keeps no key for its WAL messages yet: it generates one, which its offsets"
                            + " keep from now on; messages it wrote before this start and has not streamed yet (a"
                            + " snapshot chunk, a signal) are refused with a WARN",
                    connectorName);
        }
        return MessageSeal.generated(config.topicPrefix());
    }

    private SourceOffset storedOffset() {
        Map<String, Object> map = context.offsetStorageReader().offset(SourceOffset.partition(config.topicPrefix()));
        if (map == null) {
            return null;
        }
        try {
            return SourceOffset.fromMap(map);
        } catch (WireFormatException e) {
            throw new ConnectException(
                    "The stored source offset of " + config.topicPrefix() + " is not pglane's: " + e.getMessage(), e);
        }
    }

    /**
     * What ended the task outside poll: a record Kafka did not store or stored where a marker must not be, or the
     * signal channel's thread.
     */
    private void rethrowFailures() {
        ConnectException failure = deliveryFailure.get();
        if (failure != null) {
            throw failure;
        }
        KafkaSignalChannel signalChannel = signals;
        if (signalChannel != null) {
            signalChannel.rethrowFailure();
        }
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        metrics.publish();
        rethrowFailures();
        ReplicationSession current = session;
        if (current == null) {
            long wait = streamingStopped ? POLL_WAIT.toNanos() : reconnectAtNanos - System.nanoTime();
            if (stopping || streamingStopped || wait > 0) {
                stopSignal.await(Math.min(wait, POLL_WAIT.toNanos()), TimeUnit.NANOSECONDS);
                return null;
            }
            try {
                current = openSession();
            } catch (RetriableException e) {
                scheduleReconnect(e);
                throw e;
            }
            if (current == null) {
                return null;
            }
        }
        try {
            List<SourceRecord> records = current.poll(config.pollBatchMaxRecords(), POLL_WAIT);
            metrics.recordsEmitted(records.size());
            if (boundaries != null) {
                boundaries.handingOut(records);
            }
            if (initialSnapshotDelivered(current)) {
                endSession(current);
                stopStreaming("its initial snapshot is on Kafka");
            }
            return records.isEmpty() ? null : records;
        } catch (RetriableException e) {
            if (boundaries != null) {
                boundaries.sessionEnded();
            }
            endSession(current);
            scheduleReconnect(e);
            throw e;
        }
    }

    /**
     * Opens a session with a generation above every earlier one, also when the clock went back.
     *
     * @return the session, or {@code null} if the task was stopped meanwhile
     * @throws RetriableException if the server cannot be reached
     */
    private ReplicationSession openSession() {
        long generation = Math.max(lastGeneration + 1, System.currentTimeMillis());
        ReplicationSession opened;
        try {
            opened = ReplicationSession.open(
                    config,
                    new ReplicationSession.Start(
                            connectorName,
                            PgSourceConnector.VERSION,
                            generation,
                            resumeLsn,
                            snapshot,
                            capturedTables,
                            seal,
                            pace == null ? SnapshotPace.NONE : pace),
                    acks,
                    envelopes,
                    new ReplicationSession.Activity(metrics, metrics));
        } catch (SQLException e) {
            String what = "Cannot start replication from " + config.database().address() + ": " + e.getMessage();
            throw ConnectionLoss.isLost(e) ? new RetriableException(what, e) : new ConnectException(what, e);
        }
        lastGeneration = generation;
        backoff = config.reconnectBackoffInitial();
        synchronized (this) {
            if (stopping) {
                opened.close();
                return null;
            }
            session = opened;
        }
        metrics.session(opened);
        return opened;
    }

    /**
     * Under {@code snapshot.mode=initial_only}: the session ran the snapshot, its last END is out (the offsets carry
     * no snapshot any more) and Kafka acknowledged everything, so the target can reach the state at that point.
     */
    private boolean initialSnapshotDelivered(ReplicationSession current) {
        if (config.snapshotMode() != SnapshotMode.INITIAL_ONLY || !current.snapshots()) {
            return false;
        }
        Map<String, ?> last = current.lastOffset();
        return last != null && !last.containsKey(SourceOffset.SNAPSHOT) && acks.allAcknowledged();
    }

    private void stopStreaming(String why) {
        streamingStopped = true;
        log.info(
                "pglane source {} has snapshot.mode=initial_only and {}: it streams no more. Its replication slot {}"
                        + " still exists and keeps the server's WAL from its confirmed position on; drop it"
                        + " (pg_drop_replication_slot) unless the connector is to stream again",
                connectorName,
                why,
                config.slotName());
    }

    /** Ends a failed session; the next one resumes at the last END (or START, HEARTBEAT) it emitted. */
    private void endSession(ReplicationSession ended) {
        Map<String, ?> last = ended.lastOffset();
        if (last != null) {
            SourceOffset offset = SourceOffset.fromMap(last);
            resumeLsn = offset.commitEndLsn();
            capturedTables = offset.tables();
            // the session's START already recorded a new snapshot, so the next continues it
            snapshot = offset.snapshot() == null
                    ? ReplicationSession.Snapshot.NONE
                    : new ReplicationSession.Snapshot(false, SnapshotProgress.parse(offset.snapshot()));
        } else {
            resumeLsn = ended.resumeLsn();
        }
        synchronized (this) {
            if (session == ended) {
                session = null;
            }
        }
        metrics.session(null);
        ended.close();
    }

    private void scheduleReconnect(RetriableException e) {
        reconnectAtNanos = System.nanoTime() + backoff.toNanos();
        if (ConnectionLoss.slotHeldElsewhere(e)) {
            log.warn(
                    "pglane source {}: {}; another walsender holds slot {} (a task instance left on a worker that"
                            + " lost its group lets go once Connect stops it); trying again in {} ms",
                    connectorName,
                    e.getMessage(),
                    config.slotName(),
                    backoff.toMillis());
        } else {
            log.info(
                    "pglane source {}: {}; starting a new replication session in {} ms",
                    connectorName,
                    e.getMessage(),
                    backoff.toMillis());
        }
        Duration doubled = backoff.multipliedBy(2);
        backoff = doubled.compareTo(config.reconnectBackoffMax()) > 0 ? config.reconnectBackoffMax() : doubled;
    }

    /**
     * Kafka stored the record. Without metadata it did not: Connect skipped it (a failed send or conversion under
     * {@code errors.tolerance=all}, a transformation that dropped it), which the task refuses to start with, so it
     * can only come from a runtime that ignored that. The record is then never acknowledged, the slot stays before
     * its transaction, and the next poll() fails the task naming it.
     */
    @Override
    public void commitRecord(SourceRecord record, RecordMetadata metadata) {
        if (metadata == null && config.commitRequiresKafka()) {
            deliveryFailure.compareAndSet(
                    null,
                    new ConnectException("Connect reported " + AckTracker.describe(record) + " done, but Kafka did not"
                            + " store it (errors.tolerance=all or a transformation skipped it); the slot stays"
                            + " before its transaction, which the next run sends again"));
            return;
        }
        Optional<ConnectException> misplaced = MarkerPlacement.check(markerTopic, record, metadata);
        if (misplaced.isPresent()) {
            deliveryFailure.compareAndSet(null, misplaced.get()); // not acknowledged: the slot stays before it
            return;
        }
        acks.acknowledge(record);
    }

    /** Safe from any thread: stops the reader and the lanes and closes the connections, in bounded time. */
    @Override
    public void stop() {
        ReplicationSession current;
        synchronized (this) {
            stopping = true;
            current = session;
            session = null;
        }
        stopSignal.countDown();
        KafkaSignalChannel channel = signals;
        if (channel != null) {
            channel.close();
        }
        GroupLagWatch paced = pace;
        if (paced != null) {
            paced.close();
        }
        String first = acks.firstUnacknowledged();
        if (first != null) {
            // a failed send (a row larger than max.request.size) fails the task in Connect without telling it which
            log.warn(
                    "pglane source {} stops with records Kafka has not acknowledged, the first {}; the slot stays"
                            + " confirmed at {}, so the next run sends them again",
                    connectorName,
                    first,
                    acks.flushableLsn());
        }
        if (current != null) {
            if (metrics != null) {
                metrics.session(null);
            }
            current.close();
        }
    }
}
