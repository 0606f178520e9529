package dev.pglane.sink;

import dev.pglane.connect.database.SqlStateClass;
import dev.pglane.sink.admit.CountedTopics;
import dev.pglane.sink.admit.RecordAdmission;
import dev.pglane.sink.assemble.AssemblerSettings;
import dev.pglane.sink.assemble.MarkerPartitions;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.assemble.SpillArea;
import dev.pglane.sink.assemble.TransactionAssembler;
import dev.pglane.sink.assemble.TransactionGroups;
import dev.pglane.sink.decode.DecodeLanes;
import dev.pglane.sink.decode.DecodeSettings;
import dev.pglane.sink.decode.EnvelopeReader;
import dev.pglane.sink.decode.PayloadReader;
import dev.pglane.sink.decode.RecordDecoder;
import dev.pglane.sink.flow.Backpressure;
import dev.pglane.sink.flow.HeadWait;
import dev.pglane.sink.flow.PartitionFlow;
import dev.pglane.sink.flow.SpillCap;
import dev.pglane.sink.progress.OffsetLedger;
import dev.pglane.sink.progress.OriginSessions;
import dev.pglane.sink.progress.ProgressStore;
import dev.pglane.sink.progress.SourceIdentityCheck;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.wire.marker.Marker;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink task, the apply leader: it feeds what Connect delivers to the {@link TransactionAssembler},
 * hands complete transactions to the {@link ApplyPipeline} in commit order, holds consumer offsets
 * behind what is durable on the target, and pauses its partitions while the workers are behind.
 *
 * <p>When the target connection is lost, the pipeline is thrown away and Connect is told to retry;
 * the next {@code put()} opens a new one, reads the applied position again and rewinds every partition
 * to the oldest record not durable on the target, so whatever the lost sessions held is read again and
 * whatever they committed is skipped by the stored position.
 */
public final class PgSinkTask extends SinkTask {
    private static final Logger log = LoggerFactory.getLogger(PgSinkTask.class);
    /** Most rows in a group of transactions: a group holds its row locks until it commits. */
    private static final long GROUP_MAX_CHANGES = 10_000;

    private PgSinkConfig config;
    private String sinkName;
    private String markerTopic;
    private DecodeLanes decodeLanes;
    private String messagesTopic;
    /** The topics whose records a transaction waits for: all change topics, or a table group's. */
    private CountedTopics countedTopics;

    private PgSinkMetrics metrics;
    private final OffsetLedger ledger = new OffsetLedger();
    /** Submitted transactions not yet committed, by apply sequence; their changes are freed on commit. */
    private final NavigableMap<Long, SourceTransaction> inFlight = new TreeMap<>();
    /** Heap bytes of the in-flight transactions' changes (spilled ones are on disk). */
    private long inFlightBytes;

    private TransactionAssembler assembler;
    private ApplyPipeline pipeline;
    private long durableSequence;
    private Backpressure backpressure;
    private PartitionFlow flow;
    /** This run's spill files, from start() to stop(): pipeline restarts keep them. */
    private SpillArea spillArea;
    /** Whether the spill files are over spill.max.bytes, reported to the log and the metrics. */
    private SpillCap spillCap;
    /** The partitions this task paused, for back-pressure or because they ran ahead. */
    private final Set<TopicPartition> paused = new HashSet<>();

    private TransactionGroups groups;
    private SourceIdentityCheck identity;
    private HeadWait headWait;

    @Override
    public String version() {
        return PgSinkConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        config = new PgSinkConfig(props);
        sinkName = props.getOrDefault("name", "pglane-sink");
        markerTopic = config.markerTopic();
        DecodeSettings decoding = DecodeSettings.of(config);
        decodeLanes = new DecodeLanes(
                decoding.threads(),
                () -> new RecordDecoder(
                        markerTopic,
                        admission(config),
                        PayloadReader.of(decoding.format(), decoding.avro()),
                        EnvelopeReader.of(decoding, config.sourceTopics())),
                "pglane-" + sinkName);
        messagesTopic = config.sourceTopics().messagesTopic();
        countedTopics =
                new CountedTopics(sinkName, TableGroupSettings.scope(config), config.consumedTopics(), messagesTopic);
        metrics = PgSinkMetrics.create(context, "pglane sink " + sinkName);
        backpressure = new Backpressure(config.bufferMaxBytes(), config.bufferMaxTransactions());
        flow = new PartitionFlow(PartitionFlow.limitFor(config.bufferMaxTransactions()), markerTopic::equals);
        groups = new TransactionGroups(config.applyGroupMaxTransactions(), GROUP_MAX_CHANGES);
        identity = new SourceIdentityCheck(config.sourceTopicPrefix());
        headWait = new HeadWait(config.transactionWaitWarn());
        spillArea = openSpillArea();
        spillCap = new SpillCap(config.spillMaxBytes(), metrics);
        log.info("pglane sink {} starting: {} apply workers", sinkName, config.applyWorkers());
    }

    /** Before the first record: the marker topic must have one partition ({@link MarkerPartitions}). */
    @Override
    public void open(Collection<TopicPartition> partitions) {
        MarkerPartitions.requireOne(markerTopic, partitions);
    }

    private static RecordAdmission admission(PgSinkConfig config) {
        return new RecordAdmission(
                config.sourceTopics(),
                config.tableIncludeList(),
                new TableMapping(config.tableNameFormat()),
                config.progressStore() == ProgressStore.TABLE ? config.progressTable() : null,
                config.autoCreate() || config.autoEvolve());
    }

    private SpillArea openSpillArea() {
        try {
            return SpillArea.open(config.spillDirectory(), sinkName);
        } catch (IOException e) {
            throw new ConnectException("Cannot prepare the spill directory " + config.spillDirectory() + ": " + e, e);
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        metrics.publish();
        if (pipeline == null && !openPipeline(records)) {
            return;
        }
        // Connect may not call put() for a while when nothing arrives: what committed meanwhile is freed first
        freeCommitted();
        for (RecordDecoder.Decoded decoded : decodeLanes.decode(records)) {
            accept(decoded);
        }
        release();
        watchHead();
        checkPipeline();
        applyPauses();
        metrics.buffered(assembler.bufferedBytes(), assembler.bufferedTransactions(), spillArea.bytes());
    }

    private void accept(RecordDecoder.Decoded decoded) {
        if (decoded instanceof RecordDecoder.MarkerRecord m) {
            if (m.marker() instanceof Marker.Start start) {
                identity.observe(start);
            }
            assembler.addMarker(m.marker(), m.partition(), m.offset());
        } else if (decoded instanceof RecordDecoder.Change c) {
            assembler.addChange(c.record());
        } else if (decoded instanceof RecordDecoder.Undecodable u) {
            reportUndecodable(u);
        } else {
            metrics.perKeyRecordSkipped();
        }
    }

    /**
     * A record the sink cannot read goes to the dead-letter queue when the user configured errant
     * record reporting, and the transaction it belonged to completes without it; otherwise the task
     * stops, naming it. An unreadable marker always stops the task: order cannot be rebuilt without it.
     */
    private void reportUndecodable(RecordDecoder.Undecodable u) {
        SinkRecord record = u.record();
        var reporter = markerTopic.equals(record.topic()) ? null : context.errantRecordReporter();
        if (reporter == null) {
            throw notPglane(u, null);
        }
        try {
            reporter.report(record, u.cause());
        } catch (ConnectException e) {
            // Connect hands out a reporter also under errors.tolerance=none, and it refuses at once
            throw notPglane(u, e);
        }
        log.warn(
                "{} {}; reported as an errant record: {}",
                u.describe(),
                u.refused() ? "is refused" : "is not a pglane change",
                u.cause().getMessage());
        metrics.errantRecord();
        if (u.keyXid() >= 0) {
            assembler.addPoison(
                    new TopicPartition(record.topic(), record.kafkaPartition()), record.kafkaOffset(), u.keyXid());
        }
    }

    private ConnectException notPglane(RecordDecoder.Undecodable u, ConnectException refusal) {
        boolean marker = markerTopic.equals(u.record().topic());
        String what = u.refused() ? " is refused: " : " is not a pglane " + (marker ? "marker" : "change") + ": ";
        ConnectException e = new ConnectException(
                u.describe() + what + u.cause().getMessage()
                        + ". Remove its cause; for change topics, a dead-letter queue (errors.tolerance=all,"
                        + " errors.deadletterqueue.topic.name) can take such records",
                u.cause());
        if (refusal != null) {
            e.addSuppressed(refusal);
        }
        return e;
    }

    /**
     * Hands complete transactions to the pipeline. Submitting reads the target's catalog for the write
     * set, so it can lose the connection too: the transactions not submitted then keep their offsets in
     * the ledger, so that the restart rewinds to their records.
     */
    private void release() {
        List<SourceTransaction> ready = groups.group(assembler.drainReady());
        for (int i = 0; i < ready.size(); i++) {
            SourceTransaction tx = ready.get(i);
            long sequence;
            try {
                sequence = pipeline.submit(tx);
            } catch (RetriableException e) {
                for (SourceTransaction notSubmitted : ready.subList(i, ready.size())) {
                    ledger.unsubmitted(notSubmitted.firstOffsets());
                    notSubmitted.changes().close();
                }
                throw restartPipeline(e);
            }
            ledger.released(sequence, tx.firstOffsets());
            inFlight.put(sequence, tx);
            inFlightBytes += heapBytes(tx);
        }
        freeCommitted();
    }

    private void freeCommitted() {
        NavigableMap<Long, SourceTransaction> committed = inFlight.headMap(pipeline.committedSequence(), true);
        if (!committed.isEmpty()) {
            identity.applied(committed.lastEntry().getValue().endLsn());
        }
        for (SourceTransaction tx : committed.values()) {
            inFlightBytes -= heapBytes(tx);
            tx.changes().close();
        }
        committed.clear();
    }

    /** Also from preCommit(): put() is not called while nothing arrives, and then a wait is what matters. */
    private void watchHead() {
        long now = System.nanoTime();
        headWait.update(assembler.waitingHead(), this::consumes, now);
        metrics.headWait(headWait.waitedMs(now));
    }

    private static long heapBytes(SourceTransaction tx) {
        return tx.changes().spilled() ? 0L : tx.changes().sizeBytes();
    }

    private void checkPipeline() {
        try {
            pipeline.checkFailure();
        } catch (RetriableException e) {
            throw restartPipeline(e);
        }
    }

    /** Closes the pipeline after a lost connection; the next put() opens a new one and rewinds. */
    private RetriableException restartPipeline(RetriableException cause) {
        log.warn(
                "Lost the target connection; the apply pipeline restarts after {}: {}",
                config.retryBackoff(),
                cause.getMessage());
        discardPipeline();
        context.timeout(config.retryBackoff().toMillis());
        return cause;
    }

    /**
     * Opens the pipeline. After a failure this is a restart: the held state is dropped and every
     * partition rewound to its oldest record not durable on the target (or this batch's first record),
     * and this batch is dropped too — it will be read again after the rewind.
     *
     * @return true if {@code records} should be consumed now
     */
    private boolean openPipeline(Collection<SinkRecord> records) {
        try {
            pipeline = ApplyPipeline.open(config, sinkName, metrics, identity);
        } catch (SQLException e) {
            if (OriginSessions.heldByAnotherSession(e)) {
                // waiting is right: two instances must never apply at once, and the other one goes with its session
                log.warn(
                        "Sink {} waits to apply: another session holds its replication origin, an earlier instance"
                                + " of this task still closing or still running on another worker ({})",
                        sinkName,
                        e.getMessage());
                context.timeout(config.retryBackoff().toMillis());
                throw new RetriableException("Replication origin of " + sinkName + " in use: " + e.getMessage(), e);
            }
            if (SqlStateClass.of(e) != SqlStateClass.CONNECTION) {
                throw new ConnectException(
                        "Cannot prepare the target " + config.database().address() + ": " + e.getMessage(), e);
            }
            context.timeout(config.retryBackoff().toMillis());
            throw new RetriableException(
                    "Cannot reach the target " + config.database().address() + ": " + e.getMessage(), e);
        }
        countedTopics.neighbours(pipeline.neighbours(), pipeline::readNeighbours);
        boolean restart = assembler != null;
        Map<TopicPartition, Long> rewind = restart ? rewindPositions(records) : Map.of();
        closeHeldState();
        durableSequence = 0;
        assembler = new TransactionAssembler(
                new AssemblerSettings(
                        config.bufferMaxBytes(),
                        spillArea,
                        config.spillMaxBytes(),
                        countedTopics,
                        AssemblerSettings.abandonAfterEnds(config.bufferMaxTransactions())),
                pipeline.applied(),
                metrics);
        if (restart) {
            log.info("Rewinding {} partitions to re-read what the target may not hold: {}", rewind.size(), rewind);
            context.offset(rewind);
            resumeAll();
        }
        return !restart;
    }

    /** Whether a partition of {@code topic} is assigned to this task. */
    private boolean consumes(String topic) {
        for (TopicPartition partition : context.assignment()) {
            if (partition.topic().equals(topic)) {
                return true;
            }
        }
        return false;
    }

    private Map<TopicPartition, Long> rewindPositions(Collection<SinkRecord> records) {
        Map<TopicPartition, Long> rewind = new HashMap<>(ledger.floors(assembler.pendingFloors()));
        for (SinkRecord record : records) {
            rewind.merge(new TopicPartition(record.topic(), record.kafkaPartition()), record.kafkaOffset(), Math::min);
        }
        return rewind;
    }

    /** Stops the workers; the held state stays for {@link #openPipeline} to compute the rewind from. */
    private void discardPipeline() {
        if (pipeline != null) {
            pipeline.close();
            pipeline = null;
        }
    }

    private void closeHeldState() {
        inFlight.values().forEach(tx -> tx.changes().close());
        inFlight.clear();
        inFlightBytes = 0;
        ledger.clear();
        if (assembler != null) {
            assembler.close();
        }
    }

    /**
     * Pauses every partition while the workers are behind, otherwise those that run ahead of what the
     * next transaction waits for (while the assembler holds many copies, or the spill files are over their
     * cap); resumes the rest.
     */
    private void applyPauses() {
        boolean backpressured = backpressure.update(inFlight.size(), inFlightBytes + assembler.bufferedBytes());
        boolean spillCapped = spillCap.update(spillArea.bytes());
        Set<TopicPartition> assignment = context.assignment();
        Set<TopicPartition> wanted = backpressured
                ? assignment
                : flow.ahead(assembler.bufferedTransactions(), spillCapped, assembler::awaited, assignment);
        // a partition revoked meanwhile cannot be resumed; Connect pauses it again if it comes back
        TopicPartition[] resume = paused.stream()
                .filter(partition -> !wanted.contains(partition) && assignment.contains(partition))
                .toArray(TopicPartition[]::new);
        TopicPartition[] pause =
                wanted.stream().filter(partition -> !paused.contains(partition)).toArray(TopicPartition[]::new);
        if (resume.length > 0) {
            context.resume(resume);
            paused.removeAll(List.of(resume));
        }
        if (pause.length > 0) {
            context.pause(pause);
            paused.addAll(List.of(pause));
        }
        metrics.paused(backpressured, paused.size());
    }

    private void resumeAll() {
        context.resume(context.assignment().toArray(TopicPartition[]::new));
        paused.clear();
        backpressure.resumed();
        metrics.paused(false, 0);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        if (assembler == null) {
            return Map.of();
        }
        if (pipeline != null) {
            long committed = pipeline.committedSequence();
            if (committed > durableSequence) {
                try {
                    pipeline.makeDurable();
                    durableSequence = committed;
                    ledger.durableThrough(committed);
                } catch (SQLException e) {
                    log.warn(
                            "Could not make the applied transactions durable; offsets stay where they were: {}",
                            e.getMessage());
                }
            }
            freeCommitted();
        }
        watchHead();
        return OffsetLedger.committable(currentOffsets, ledger.floors(assembler.pendingFloors()));
    }

    @Override
    public void stop() {
        if (decodeLanes != null) {
            decodeLanes.close();
        }
        discardPipeline();
        closeHeldState();
        assembler = null;
        if (spillArea != null) {
            spillArea.close();
        }
        log.info("pglane sink {} stopped", sinkName);
    }
}
