package dev.pglane.source.reader;

import dev.pglane.source.ConnectionLoss;
import dev.pglane.source.decode.DecoderLanes;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.offset.AckTracker;
import dev.pglane.source.pgoutput.CommitMessage;
import dev.pglane.source.pgoutput.PgOutputFormatException;
import dev.pglane.source.pgoutput.PgOutputMessage;
import dev.pglane.source.pgoutput.PgOutputParser;
import dev.pglane.source.pgoutput.ProtocolVersion;
import dev.pglane.source.pgoutput.StreamCommitMessage;
import dev.pglane.source.schema.RelationCache;
import dev.pglane.source.seal.MessageSeal;
import dev.pglane.source.snapshot.SnapshotStream;
import dev.pglane.wire.Lsn;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that reads the replication stream, and the only user of the pgjdbc stream object.
 *
 * <p>It polls with {@code readPending()} and parks briefly when nothing is there (50 µs, doubling up to
 * 5 ms, so a busy stream costs no wake-up latency and an idle one little CPU). Each message is parsed
 * and handed to the {@link TransactionTracker}, whose items go in batches to the decoder lanes. Whenever
 * the stream is quiet it hands over the partial batch, confirms the newest acknowledged END to the slot,
 * and, with nothing in flight at all, confirms the server's keepalive position and emits heartbeats.
 * While messages keep coming, or while it waits for a full lane, it confirms a newer acknowledged END at most once
 * a second. pgjdbc answers the server only from inside its calls, so the reader never blocks elsewhere: waiting for a
 * full lane, it still sends a status update every status interval.
 */
public final class ReplicationReader implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(ReplicationReader.class);
    private static final long MIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** While messages keep coming, the flushable LSN is still looked at this often. */
    private static final int MESSAGES_PER_FLUSH_CHECK = 1024;
    /**
     * Least time between two status updates forced to confirm a new position. Under a steady load the stream never
     * pauses, and pgjdbc alone would report only every status interval (10 s by default): the slot would hold that
     * much WAL, and the server's next restart point would wait for it as well.
     */
    private static final long CONFIRM_GAP_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Status intervals without a message before the reader asks whether the stream is still served. */
    static final int QUIET_INTERVALS_BEFORE_CHECK = 3;

    /**
     * @param server the server's address, for error messages
     * @param identity the server's identity, for the START marker
     * @param heartbeatInterval zero when heartbeats are off
     */
    public record Settings(
            String server,
            ServerIdentity identity,
            ProtocolVersion protocol,
            long generation,
            Lsn resumeLsn,
            boolean beginMarkers,
            MessageFilter messages,
            OriginFilter origins,
            String messagesTopic,
            int batchSize,
            Duration statusInterval,
            Duration heartbeatInterval,
            MessageSeal seal) {}

    private final Settings settings;
    private final PGReplicationStream stream;
    private final PgOutputParser parser;
    private final BatchDispatcher dispatcher;
    private final TransactionTracker tracker;
    private final AckTracker acks;
    private final LongSupplier emitted;
    private final FailureSlot failures;
    private final ReaderActivity activity;
    private final StreamLiveness liveness;

    private volatile boolean stopping;
    private volatile Lsn receivedLsn = Lsn.INVALID;
    private volatile Lsn serverLsn = Lsn.INVALID;
    private volatile Lsn flushedLsn = Lsn.INVALID;
    /** The position of the last status update this reader forced. */
    private Lsn reportedLsn = Lsn.INVALID;

    private long lastStatusNanos = System.nanoTime();
    private long quietSinceNanos = System.nanoTime();
    private long parkedNanos;
    private long reportedAtNanos = System.nanoTime();
    private long reportedIdleNanos;
    /** The last message, wait on a lane or liveness check: what a silent stream is measured from. */
    private long livelyAtNanos = System.nanoTime();

    /**
     * @param emitted how many records the emitter has handed to Connect in this session
     */
    public ReplicationReader(
            Settings settings,
            PGReplicationStream stream,
            RelationCache relations,
            DecoderLanes lanes,
            AckTracker acks,
            LongSupplier emitted,
            FailureSlot failures,
            ReaderActivity activity,
            StreamLiveness liveness,
            SnapshotStream snapshot) {
        this.settings = settings;
        this.stream = stream;
        this.parser = new PgOutputParser(settings.protocol());
        this.dispatcher = new BatchDispatcher(lanes, settings.batchSize(), this::keepAnswering);
        if (settings.messages().emit() && !settings.messages().prefixes().isEmpty()) {
            log.info(
                    "Logical decoding messages of prefixes {} become records; those of other prefixes are dropped"
                            + " (logical.messages.prefixes)",
                    settings.messages().prefixes());
        }
        if (settings.origins() == OriginFilter.NONE) {
            log.info("Transactions applied through a replication origin (by a subscriber or a sink) are not captured"
                    + " (origin.filter=none)");
        }
        this.tracker = new TransactionTracker(
                relations,
                settings.messagesTopic(),
                settings.generation(),
                settings.resumeLsn(),
                settings.beginMarkers(),
                settings.messages(),
                settings.origins(),
                snapshot,
                settings.seal(),
                dispatcher);
        this.acks = acks;
        this.emitted = emitted;
        this.failures = failures;
        this.activity = activity;
        this.liveness = liveness;
    }

    @Override
    public void run() {
        try {
            tracker.start(System.currentTimeMillis(), settings.identity());
            read();
        } catch (InterruptedException e) {
            // Asked to stop.
        } catch (SQLException e) {
            failures.fail(failure(e));
        } catch (ConnectException e) {
            failures.fail(e);
        } catch (Throwable e) { // an Error too: a reader that died quietly would leave the task RUNNING and stalled
            failures.fail(new ConnectException("The replication reader failed after LSN " + receivedLsn + ": " + e, e));
        }
    }

    /** Asks the thread to stop; it does at once when its thread is interrupted too, else within a wait slice. */
    public void stop() {
        stopping = true;
    }

    private void read() throws InterruptedException, SQLException {
        long park = MIN_PARK_NANOS;
        int sinceFlushCheck = 0;
        while (!stopping) {
            ByteBuffer message = stream.readPending();
            if (message != null) {
                handle(message);
                park = MIN_PARK_NANOS;
                if (++sinceFlushCheck == MESSAGES_PER_FLUSH_CHECK) {
                    sinceFlushCheck = 0;
                    applyFlushable(false);
                    reportBusy();
                }
                continue;
            }
            dispatcher.flush();
            applyFlushable(true);
            whenQuiet();
            reportBusy();
            long parkStart = System.nanoTime();
            LockSupport.parkNanos(park);
            parkedNanos += System.nanoTime() - parkStart;
            park = Math.min(park * 2, MAX_PARK_NANOS);
        }
    }

    private void handle(ByteBuffer buffer) throws InterruptedException, SQLException {
        livelyAtNanos = System.nanoTime();
        Lsn lsn = Lsn.valueOf(stream.getLastReceiveLSN().asLong());
        receivedLsn = lsn;
        PgOutputMessage message;
        try {
            message = parser.parse(buffer, tracker.insideStream());
        } catch (PgOutputFormatException e) {
            throw new ConnectException("Cannot parse pgoutput message at LSN " + lsn + ": " + e.getMessage(), e);
        }
        tracker.accept(message, lsn, System.currentTimeMillis() * 1000L);
        if (message instanceof CommitMessage || message instanceof StreamCommitMessage) {
            activity.committed();
        }
    }

    /**
     * With nothing in flight (no open transaction, every item emitted and acknowledged), confirms the
     * server's position, so an idle or filtered-out workload does not pin WAL, and emits a heartbeat
     * when one is due.
     */
    private void whenQuiet() throws InterruptedException, SQLException {
        Lsn server = Lsn.valueOf(stream.getLastReceiveLSN().asLong());
        serverLsn = Lsn.max(serverLsn, server);
        long now = System.nanoTime();
        checkServed(now);
        boolean nothingInFlight =
                tracker.idle() && dispatcher.produced() == emitted.getAsLong() && acks.allAcknowledged();
        if (!nothingInFlight) {
            quietSinceNanos = now;
            return;
        }
        // Sent at once at most every second: each forced update makes the server answer with a keepalive, which,
        // while unpublished WAL keeps coming, would carry a new position each time.
        confirm(server, now - lastStatusNanos >= CONFIRM_GAP_NANOS);
        Duration heartbeat = settings.heartbeatInterval();
        if (!heartbeat.isZero() && now - quietSinceNanos >= heartbeat.toNanos()) {
            tracker.heartbeat(server, System.currentTimeMillis());
            dispatcher.flush();
            quietSinceNanos = now;
        }
    }

    /**
     * Hands the newest acknowledged END (or HEARTBEAT) to pgjdbc, and sends it now with {@code force} or when the last
     * status update is a second old.
     */
    private void applyFlushable(boolean force) throws SQLException {
        confirm(acks.flushableLsn(), force || System.nanoTime() - lastStatusNanos >= CONFIRM_GAP_NANOS);
    }

    /**
     * Hands {@code lsn} to pgjdbc if it is newer than the position it holds; with {@code send}, sends a status update
     * now if the server has not been told that position yet. A position handed over without one waits for the next.
     */
    private void confirm(Lsn lsn, boolean send) throws SQLException {
        if (lsn.compareTo(flushedLsn) > 0) {
            LogSequenceNumber position = LogSequenceNumber.valueOf(lsn.asLong());
            stream.setFlushedLSN(position);
            stream.setAppliedLSN(position);
            flushedLsn = lsn;
        }
        if (send && flushedLsn.compareTo(reportedLsn) > 0) {
            sendStatus();
        }
    }

    private void sendStatus() throws SQLException {
        stream.forceUpdateStatus();
        lastStatusNanos = System.nanoTime();
        reportedLsn = flushedLsn;
    }

    /**
     * After {@link #QUIET_INTERVALS_BEFORE_CHECK} status intervals without a message, asks whether the server still
     * serves the stream; a stream it does not serve is a lost connection, and the task reconnects.
     */
    private void checkServed(long now) throws SQLException {
        long quiet = now - livelyAtNanos;
        if (quiet < QUIET_INTERVALS_BEFORE_CHECK * settings.statusInterval().toNanos()) {
            return;
        }
        String problem;
        try {
            problem = liveness.problem();
        } catch (SQLException e) {
            throw new SQLException(
                    "nothing received for " + quiet / 1_000_000 + " ms, and the server cannot be asked about the"
                            + " stream: " + e.getMessage(),
                    "08006",
                    e);
        }
        if (problem != null) {
            throw new SQLException(
                    "nothing received for " + quiet / 1_000_000 + " ms, and the server no longer serves this"
                            + " stream: " + problem,
                    "08006");
        }
        livelyAtNanos = now;
    }

    /**
     * Between wait slices on a full lane, without reading: confirm what Kafka acknowledged meanwhile (at most once a
     * second) and answer the server at the status interval.
     */
    private void keepAnswering() throws InterruptedException, SQLException {
        if (stopping) {
            throw new InterruptedException("the replication session is stopping");
        }
        livelyAtNanos = System.nanoTime(); // busy, not quiet: the stream waits for the lanes
        applyFlushable(false);
        if (System.nanoTime() - lastStatusNanos >= settings.statusInterval().toNanos()) {
            sendStatus();
        }
    }

    /** Reports the time not spent parked or waiting for lanes since the last report, at most every 100 ms. */
    private void reportBusy() {
        long now = System.nanoTime();
        long elapsed = now - reportedAtNanos;
        if (elapsed < TimeUnit.MILLISECONDS.toNanos(100)) {
            return;
        }
        long idle = parkedNanos + dispatcher.waitedNanos();
        activity.busy(Math.max(0, elapsed - (idle - reportedIdleNanos)));
        reportedAtNanos = now;
        reportedIdleNanos = idle;
    }

    private ConnectException failure(SQLException e) {
        if (ConnectionLoss.isLost(e)) {
            return new RetriableException(
                    "Lost the replication connection to " + settings.server() + " after LSN " + receivedLsn + ": "
                            + e.getMessage(),
                    e);
        }
        return new ConnectException(
                "Replication from " + settings.server() + " failed after LSN " + receivedLsn + ": " + e.getMessage(),
                e);
    }

    /** The position of the last message received (its XLogData start). */
    public Lsn receivedLsn() {
        return receivedLsn;
    }

    /** The server's WAL position as its keepalives report it. */
    public Lsn serverLsn() {
        return serverLsn;
    }

    /** The position last confirmed to the slot. */
    public Lsn flushedLsn() {
        return flushedLsn;
    }
}
