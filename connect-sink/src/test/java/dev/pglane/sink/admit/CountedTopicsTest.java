package dev.pglane.sink.admit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import java.util.List;
import org.junit.jupiter.api.Test;

class CountedTopicsTest {
    private static final String MESSAGES = "shop.messages";
    private static final ConsumedTopics GROUP = ConsumedTopics.matching("shop\\.(transactions|public\\.ledger)");

    @Test
    void wholeTransactionsWaitForEveryChangeTopicAssignedOrNot() {
        CountedTopics counted = new CountedTopics("s", ApplyScope.TRANSACTION, GROUP, MESSAGES);
        assertTrue(counted.test("shop.public.ledger"));
        assertTrue(counted.test("shop.public.other"), "a topic the sink does not consume still counts");
    }

    /**
     * A sequence's value travels on the messages topic, which {@code topics.regex} picks up only at the consumer's next
     * metadata refresh: a transaction applied before its message arrives would lose the value.
     */
    @Test
    void theMessagesTopicCountsWheneverItIsConsumedAssignedYetOrNot() {
        ConsumedTopics everything = ConsumedTopics.matching("shop\\..*");
        for (ApplyScope scope : ApplyScope.values()) {
            assertTrue(new CountedTopics("s", scope, everything, MESSAGES).test(MESSAGES), scope::toString);
            assertFalse(new CountedTopics("s", scope, GROUP, MESSAGES).test(MESSAGES), scope::toString);
        }
    }

    @Test
    void aTableGroupWaitsForItsOwnTopicsOnlyAndTellsEachTopicItPassesOverOnce() {
        CountedTopics counted = new CountedTopics("s", ApplyScope.CONSUMED_TOPICS, GROUP, MESSAGES);
        try (LogCapture log = LogCapture.start()) {
            assertTrue(counted.test("shop.public.ledger"), "its own topic counts before it is assigned");
            assertFalse(counted.test("shop.public.other"));
            assertFalse(counted.test("shop.public.other"));
            assertFalse(counted.test("shop.public.third"));
            List<String> told = log.lines().stream()
                    .filter(l -> l.startsWith("INFO ") && l.contains("applies a table group"))
                    .toList();
            assertEquals(2, told.size(), () -> "one line per topic passed over: " + told);
            assertTrue(told.get(0).contains("on topic shop.public.other are not its share"), told::toString);
            assertTrue(told.get(1).contains("on topic shop.public.third"), told::toString);
        }
    }

    /**
     * A topic another sink applies too is warned of at once. One that no sink applies is read again while it keeps
     * coming (a neighbour started just after this sink records its group then), and warned of after the grace.
     */
    @Test
    void aTopicTwoSinksApplyOrNoneAppliesIsWarnedOfOnceTheNeighboursAreKnown() {
        long[] now = {0};
        CountedTopics counted = new CountedTopics("s", ApplyScope.CONSUMED_TOPICS, GROUP, MESSAGES, () -> now[0]);
        NeighbourSinks.Neighbour ledgerToo =
                new NeighbourSinks.Neighbour("ledger-too", ConsumedTopics.listed(List.of("shop.public.ledger")));
        NeighbourSinks.Neighbour others =
                new NeighbourSinks.Neighbour("others", ConsumedTopics.matching("shop\\.public\\.o.*"));
        NeighbourSinks.Neighbour late =
                new NeighbourSinks.Neighbour("late", ConsumedTopics.listed(List.of("shop.public.late")));
        String registry = "progress table public.pglane_progress for source shop";
        int[] reads = {0};
        counted.neighbours(new NeighbourSinks(registry, List.of(ledgerToo, others)), () -> {
            reads[0]++;
            return new NeighbourSinks(registry, List.of(ledgerToo, others, late));
        });
        try (LogCapture log = LogCapture.start()) {
            assertTrue(counted.test("shop.public.ledger"));
            assertTrue(counted.test("shop.public.ledger"));
            assertFalse(counted.test("shop.public.other"));
            assertFalse(counted.test("shop.public.third"));
            assertFalse(counted.test("shop.public.late"));
            assertEquals(1, warnings(log).size(), () -> "only the overlap at once: " + warnings(log));
            assertTrue(
                    warnings(log)
                            .get(0)
                            .contains("applies topic shop.public.ledger, and so does [ledger-too (topics"
                                    + " shop.public.ledger)] on the same target"),
                    () -> warnings(log).toString());
            assertTrue(
                    log.lines().stream()
                            .anyMatch(l -> l.startsWith("INFO ")
                                    && l.contains("on topic shop.public.other are not its share")
                                    && l.contains("leaves them to [others (topics.regex")),
                    () -> String.join("\n", log.lines()));

            now[0] = GroupCoverage.REREAD.toNanos();
            assertFalse(counted.test("shop.public.third"));
            assertFalse(counted.test("shop.public.late"));
            assertEquals(1, reads[0], "read again once per interval");
            assertEquals(1, warnings(log).size(), "within the grace, nothing yet");

            now[0] = GroupCoverage.GRACE.toNanos();
            assertFalse(counted.test("shop.public.third"));
            assertFalse(counted.test("shop.public.late"));
            assertFalse(counted.test("shop.public.third"));
            assertEquals(2, warnings(log).size(), () -> warnings(log).toString());
            assertTrue(
                    warnings(log)
                            .get(1)
                            .contains("no sink applies topic shop.public.third to this target (sinks" + " recorded in "
                                    + registry + ": ledger-too"),
                    () -> warnings(log).toString());
        }
    }

    private static List<String> warnings(LogCapture log) {
        return log.lines().stream().filter(l -> l.startsWith("WARN ")).toList();
    }

    @Test
    void wholeTransactionsWarnOfAnotherSinkApplyingTheirTopics() {
        CountedTopics counted = new CountedTopics("s", ApplyScope.TRANSACTION, GROUP, MESSAGES);
        NeighbourSinks old = new NeighbourSinks("t", List.of(new NeighbourSinks.Neighbour("old", null)));
        counted.neighbours(old, () -> old);
        try (LogCapture log = LogCapture.start()) {
            assertTrue(counted.test("shop.public.other"));
            assertTrue(
                    log.lines().stream()
                            .anyMatch(l -> l.startsWith("WARN ")
                                    && l.contains("and so does [old (whole transactions)] on the same target")),
                    () -> String.join("\n", log.lines()));
        }
    }
}
