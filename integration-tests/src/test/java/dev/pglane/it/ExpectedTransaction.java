package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.kafka.CommittedTransaction;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A committed transaction as the test's SQL made it: its xid and its row changes in statement order. */
record ExpectedTransaction(long xid, List<ExpectedChange> changes) {
    ExpectedTransaction {
        changes = List.copyOf(changes);
    }

    /**
     * Asserts that the rebuilt transaction is exactly this one: the same changes in the same order, numbered
     * 1, 2, ... in the transaction and per table, each stamped with the commit of its END; and an END that counts
     * them per table on the right topics.
     */
    void assertMatches(CommittedTransaction actual, String topicPrefix) {
        String tx = "xid " + xid;
        assertEquals(xid, actual.xid(), "commit order");
        List<ChangeEvent> events = actual.changes();
        assertEquals(changes.size(), events.size(), tx + ": number of changes; got " + events);
        Map<String, Long> perTable = new HashMap<>();
        long previousLsn = 0;
        for (int i = 0; i < events.size(); i++) {
            ChangeEvent event = events.get(i);
            String where = tx + " change " + (i + 1);
            changes.get(i).assertMatches(event, where);
            TransactionInfo block = event.transaction();
            assertEquals(i + 1, block.totalOrder(), where + ": total_order");
            long tableOrder = perTable.merge(event.source().table(), 1L, Long::sum);
            assertEquals(tableOrder, block.dataCollectionOrder(), where + ": data_collection_order");
            assertEquals(actual.generation(), block.generation(), where + ": generation");
            assertNull(block.subxid(), where + ": subxid of a transaction that was not streamed");
            assertNull(event.source().snapshot(), where + ": source.snapshot");
            assertEquals(actual.end().commitTsUs(), event.source().time().us(), where + ": source.ts_us = commit");
            long lsn = event.source().lsn().asLong();
            assertTrue(Long.compareUnsigned(lsn, previousLsn) >= 0, where + ": source.lsn goes back");
            previousLsn = lsn;
        }
        assertEnd(actual.end(), perTable, topicPrefix);
    }

    private void assertEnd(Marker.End end, Map<String, Long> perTable, String topicPrefix) {
        String tx = "END of xid " + xid;
        assertEquals(changes.size(), end.eventCount(), tx + ": event_count");
        Map<String, Long> counted = new TreeMap<>();
        for (DataCollectionCount count : end.dataCollections()) {
            counted.put(count.dataCollection(), count.eventCount());
            String table = count.dataCollection().substring("public.".length());
            assertEquals(topicPrefix + ".public." + table, count.topic(), tx + ": topic of " + count.dataCollection());
        }
        Map<String, Long> expected = new TreeMap<>();
        perTable.forEach((table, count) -> expected.put("public." + table, count));
        assertEquals(expected, counted, tx + ": data_collections");
        assertTrue(end.endLsn().compareTo(end.commitLsn()) > 0, tx + ": end_lsn > commit_lsn " + end);
    }
}
