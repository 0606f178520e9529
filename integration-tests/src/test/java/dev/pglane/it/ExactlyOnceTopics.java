package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.kafka.CommittedTransaction;
import dev.pglane.local.kafka.TopicReader;
import dev.pglane.local.kafka.TransactionRebuilder;
import dev.pglane.local.kafka.WireRecord;
import dev.pglane.wire.marker.SnapshotChunk;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A source's topics as a consumer of exactly-once topics reads them ({@code isolation.level=read_committed}), rebuilt
 * by the documented discard rule ({@link TransactionRebuilder}): on an exactly-once worker whose source draws the Kafka
 * transactions' boundaries, the rule must find nothing to discard, whatever the workers went through. No transaction
 * is there twice, none in part (a copy without its END, or one with fewer records than its END counts), every END has
 * its records, and no key range of a snapshot is there twice.
 */
final class ExactlyOnceTopics {
    private static final Duration READ = Duration.ofSeconds(120);

    private ExactlyOnceTopics() {}

    /** What one reading of the topics found. */
    record Reading(TransactionRebuilder rebuilt, Map<String, Integer> chunkCopies) {

        /** Records of the transaction {@code xid} that were released. */
        long changesOf(long xid) {
            return rebuilt.committed().stream()
                    .filter(t -> t.xid() == xid)
                    .mapToLong(t -> t.changes().size())
                    .sum();
        }
    }

    /** Reads the topics of {@code run}'s source to their end, committed records only. */
    static Reading readCommitted(SharedWorker worker, SourceConnectorRun run) {
        long begin = System.nanoTime();
        TransactionRebuilder rebuilt = new TransactionRebuilder();
        Map<String, Integer> chunkCopies = new HashMap<>();
        String prefix = run.topicPrefix();
        try (TopicReader reader = TopicReader.committedOf(worker.bootstrapServers(), prefix, run.format())) {
            reader.readToEnd(rebuilt::accept, READ);
        }
        for (CommittedTransaction transaction : rebuilt.committed()) {
            SnapshotChunk chunk = transaction.end().snapshot();
            if (chunk != null) {
                // a chunk's number counts from 0 in each run of the task; its key range names it
                chunkCopies.merge(chunk.snapshotId() + " " + chunk.table() + " " + chunk.range(), 1, Integer::sum);
            }
        }
        System.out.printf(
                "ExactlyOnceTopics %s: %d transactions rebuilt from committed records in %d ms%n",
                prefix, rebuilt.committedCount(), (System.nanoTime() - begin) / 1_000_000);
        return new Reading(rebuilt, chunkCopies);
    }

    /** Records of transaction {@code xid} written to {@code topic}, those of aborted Kafka transactions included. */
    static long writtenOf(SharedWorker worker, SourceConnectorRun run, String topic, long xid) {
        long[] written = {0};
        try (TopicReader reader =
                TopicReader.everythingOn(worker.bootstrapServers(), run.topicPrefix(), topic, run.format())) {
            reader.readToEnd(
                    record -> {
                        if (record instanceof WireRecord.Change change && change.keyXid() == xid) {
                            written[0]++;
                        }
                    },
                    READ);
        }
        return written[0];
    }

    /**
     * Asserts that the committed records of {@code run}'s source hold every transaction exactly once and whole, and
     * returns that reading.
     */
    static Reading assertExactlyOnce(SharedWorker worker, SourceConnectorRun run) {
        Reading committed = readCommitted(worker, run);
        TransactionRebuilder rebuilt = committed.rebuilt();
        String seen = rebuilt.committedCount() + " transactions read: " + rebuilt.describe();
        assertEquals(0, rebuilt.duplicatesSkipped(), () -> "transactions there twice; " + seen);
        assertEquals(0, rebuilt.staleCopiesDropped(), () -> "copies without their END; " + seen);
        assertEquals(0, rebuilt.incompleteCopiesReplaced(), () -> "copies with records missing; " + seen);
        assertTrue(rebuilt.settled(), () -> "records or ENDs left waiting; " + seen);
        List<String> twice = committed.chunkCopies().entrySet().stream()
                .filter(e -> e.getValue() > 1)
                .map(Map.Entry::getKey)
                .toList();
        assertEquals(List.of(), twice, "snapshot chunks of the same key range there twice");
        return committed;
    }
}
