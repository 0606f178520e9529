package dev.pglane.source.emit;

import dev.pglane.source.offset.AckTracker;
import dev.pglane.wire.SourceOffset;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the Kafka transactions of an exactly-once worker end when the source draws their boundaries ({@code
 * transaction.boundary=connector}): after the last record of a poll batch that leaves no database transaction open,
 * which is the one whose source offset names no open transaction (an END, a START, a HEARTBEAT, a message written
 * outside transactions). So every database transaction lies whole in one Kafka transaction, with its END and the
 * offset after it, and the small ones of one batch share one; a {@code read_committed} consumer sees each whole or
 * not at all, and a restart, which resumes at the last committed END, aborts what came after it instead of sending
 * it twice. That needs {@code streaming.mode=off}: streamed transactions interleave, so a point with none open may
 * never come.
 *
 * <p>A database transaction too large for the producer's {@code transaction.timeout.ms} makes the broker abort the
 * Kafka transaction and fails the task, which would send it again and fail again: after {@link #OPEN_WARN} of one
 * open Kafka transaction the log says which database transaction holds it open and what to raise. Poll thread only.
 */
public final class KafkaTransactionBoundaries {
    private static final Logger log = LoggerFactory.getLogger(KafkaTransactionBoundaries.class);
    /** Half of the producer's default {@code transaction.timeout.ms}. */
    static final Duration OPEN_WARN = Duration.ofSeconds(30);

    private final TransactionContext context;
    private final AckTracker acks;
    private final String connector;
    private final LongSupplier nanoClock;
    /** When the first record after the last requested commit was handed out; -1 when there is none. */
    private long openSinceNanos = -1;
    /** That record, the first of the open Kafka transaction. */
    private SourceRecord firstOpen;

    private long openRecords;
    /** The transaction of the last record handed out while one is open. */
    private Object openXid;

    private boolean warned;

    public KafkaTransactionBoundaries(TransactionContext context, AckTracker acks, String connector) {
        this(context, acks, connector, System::nanoTime);
    }

    KafkaTransactionBoundaries(TransactionContext context, AckTracker acks, String connector, LongSupplier nanoClock) {
        this.context = context;
        this.acks = acks;
        this.connector = connector;
        this.nanoClock = nanoClock;
    }

    /**
     * Asks Connect to commit after the batch's last record between transactions, if any; called with every batch
     * poll() hands out, an empty one too.
     */
    public void handingOut(List<SourceRecord> batch) {
        long now = nanoClock.getAsLong();
        int last = batch.size() - 1;
        while (last >= 0 && !betweenTransactions(batch.get(last))) {
            last--;
        }
        if (last >= 0) {
            context.commitTransaction(batch.get(last));
            forgetOpen();
        }
        int open = batch.size() - 1 - last;
        if (open > 0) {
            if (openSinceNanos < 0) {
                openSinceNanos = now;
                firstOpen = batch.get(last + 1);
            }
            openRecords += open;
            openXid = batch.get(batch.size() - 1).sourceOffset().get(SourceOffset.XID);
        }
        if (openSinceNanos >= 0 && !warned && now - openSinceNanos >= OPEN_WARN.toNanos()) {
            warned = true;
            log.warn(
                    "pglane source {}: database transaction {} has kept one Kafka transaction open for {} s ({}"
                            + " records so far) and its END has not come yet. The broker aborts a transaction open"
                            + " longer than the producer's transaction.timeout.ms (60 s unless"
                            + " producer.override.transaction.timeout.ms raises it, up to the broker's"
                            + " transaction.max.timeout.ms), which fails the task; it would send the transaction"
                            + " again from its start",
                    connector,
                    openXid,
                    Duration.ofNanos(now - openSinceNanos).toSeconds(),
                    openRecords);
        }
    }

    /**
     * The replication session ended (a lost connection) and the next one sends a transaction cut off from its start:
     * the Kafka transaction holding the records handed out of it is aborted, or they would be committed twice. Connect
     * aborts after the poll that throws the session's end, which it counts as a batch of none; the records Kafka will
     * not acknowledge now count as acknowledged, so the slot moves on once the transaction's second sending is in.
     */
    public void sessionEnded() {
        if (openSinceNanos < 0) {
            return;
        }
        log.info(
                "pglane source {}: the replication session ended inside database transaction {}; the Kafka"
                        + " transaction holding its first {} records is aborted, and the next session sends it whole",
                connector,
                openXid,
                openRecords);
        context.abortTransaction();
        acks.abandon(firstOpen);
        forgetOpen();
    }

    private void forgetOpen() {
        openSinceNanos = -1;
        firstOpen = null;
        openRecords = 0;
        openXid = null;
        warned = false;
    }

    private static boolean betweenTransactions(SourceRecord record) {
        return record.sourceOffset().get(SourceOffset.XID) == null;
    }
}
