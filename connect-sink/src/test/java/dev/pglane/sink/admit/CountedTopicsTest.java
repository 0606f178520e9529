package dev.pglane.sink.admit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CountedTopicsTest {
    private static final String MESSAGES = "shop.messages";
    private static final ConsumedTopics GROUP = ConsumedTopics.matching("shop\\.(transactions|public\\.ledger)");

    @Test
    void wholeTransactionsWaitForEveryChangeTopicAssignedOrNot() {
        CountedTopics counted = new CountedTopics("s", ApplyScope.TRANSACTION, GROUP, MESSAGES, t -> false);
        assertTrue(counted.test("shop.public.ledger"));
        assertTrue(counted.test("shop.public.other"), "a topic the sink does not consume still counts");
    }

    @Test
    void aTableGroupWaitsForItsOwnTopicsOnlyAndTellsEachTopicItPassesOverOnce() {
        CountedTopics counted = new CountedTopics("s", ApplyScope.CONSUMED_TOPICS, GROUP, MESSAGES, t -> false);
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

    @Test
    void theMessagesTopicCountsOnlyWhenAssigned() {
        for (ApplyScope scope : ApplyScope.values()) {
            assertFalse(new CountedTopics("s", scope, GROUP, MESSAGES, t -> false).test(MESSAGES), scope::toString);
            assertTrue(new CountedTopics("s", scope, GROUP, MESSAGES, Set.of(MESSAGES)::contains).test(MESSAGES));
        }
    }
}
