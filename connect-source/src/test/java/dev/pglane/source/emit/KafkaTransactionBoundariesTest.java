package dev.pglane.source.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.source.offset.AckTracker;
import dev.pglane.source.offset.TrackedRecord;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.SourceOffset;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.TransactionContext;
import org.junit.jupiter.api.Test;

class KafkaTransactionBoundariesTest {
    private final Requests requests = new Requests();
    private final AckTracker acks = new AckTracker();
    private final long[] now = {0};
    private final KafkaTransactionBoundaries boundaries =
            new KafkaTransactionBoundaries(requests, acks, "src", () -> now[0]);

    /** A record inside transaction {@code xid}: its offset names it. */
    private static TrackedRecord change(long xid) {
        return record(new SourceOffset(Lsn.valueOf(100), 1, xid, 1L, Lsn.valueOf(90)), null);
    }

    /** An END: its offset is between transactions. */
    private static TrackedRecord end(long endLsn) {
        return record(new SourceOffset(Lsn.valueOf(endLsn), 1, null, null, null), Lsn.valueOf(endLsn));
    }

    private static TrackedRecord record(SourceOffset offset, Lsn confirm) {
        return new TrackedRecord(
                Map.of("server", "t"), offset.toMap(), "t.x", null, null, Schema.STRING_SCHEMA, "v", 0L, null, confirm);
    }

    private List<SourceRecord> handOut(SourceRecord... records) {
        List<SourceRecord> batch = List.of(records);
        acks.dispatch(batch);
        boundaries.handingOut(batch);
        return batch;
    }

    @Test
    void aKafkaTransactionEndsAfterTheBatchsLastEndAndSmallTransactionsShareOne() {
        List<SourceRecord> batch = handOut(change(7), end(200), change(8), end(300), change(9));
        assertSame(batch.get(3), requests.commitOn, "after the last END, not after the first");
        requests.commitOn = null;
        handOut(change(9), change(9));
        assertNull(requests.commitOn, "no boundary inside database transaction 9");
        List<SourceRecord> rest = handOut(change(9), end(400));
        assertSame(rest.get(1), requests.commitOn);
        assertFalse(requests.aborted);
    }

    @Test
    void aSessionThatEndsInsideATransactionAbortsItsKafkaTransactionAndLetsTheSlotMoveOn() {
        List<SourceRecord> first = handOut(change(7), end(200), change(8), change(8));
        first.subList(0, 2).forEach(acks::acknowledge);
        boundaries.sessionEnded();
        assertTrue(requests.aborted);
        List<SourceRecord> again = handOut(change(8), change(8), change(8), end(300));
        again.forEach(acks::acknowledge);
        assertEquals(Lsn.valueOf(300), acks.flushableLsn(), "transaction 8's first sending no longer holds the slot");

        requests.aborted = false;
        boundaries.sessionEnded();
        assertFalse(requests.aborted, "no Kafka transaction was open: nothing to abort");
    }

    @Test
    void aDatabaseTransactionThatKeepsAKafkaTransactionOpenLongIsWarnedOfOnce() {
        try (LogCapture log = LogCapture.start()) {
            handOut(end(100), change(7));
            now[0] = KafkaTransactionBoundaries.OPEN_WARN.minusSeconds(1).toNanos();
            handOut(change(7));
            now[0] = KafkaTransactionBoundaries.OPEN_WARN.toNanos();
            handOut(); // a poll that brings nothing while the transaction is open
            handOut(change(7));
            List<String> warned = log.lines().stream()
                    .filter(l -> l.startsWith("WARN ") && l.contains("database transaction 7 has kept one Kafka"))
                    .toList();
            assertEquals(1, warned.size(), () -> String.join("\n", log.lines()));
            assertTrue(warned.get(0).contains("for 30 s (2 records so far)"), warned::toString);
            assertTrue(warned.get(0).contains("producer.override.transaction.timeout.ms"), warned::toString);
        }
    }

    /** What the source asks of Connect. */
    private static final class Requests implements TransactionContext {
        SourceRecord commitOn;
        boolean aborted;

        @Override
        public void commitTransaction() {
            throw new AssertionError("the source commits on a record only");
        }

        @Override
        public void commitTransaction(SourceRecord record) {
            commitOn = record;
        }

        @Override
        public void abortTransaction() {
            aborted = true;
        }

        @Override
        public void abortTransaction(SourceRecord record) {
            throw new AssertionError("the source aborts after a batch of none only");
        }
    }
}
