package dev.pglane.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TopicNamesTest {

    @Test
    void perTableTopics() {
        TopicNames names = TopicNames.perTable("shop");
        assertEquals("shop.public.orders", names.changeTopic("public", "orders"));
        assertEquals("shop.transactions", names.transactionsTopic());
        assertEquals("shop.messages", names.messagesTopic());
        assertFalse(names.isSingleTopic());
        assertEquals("shop", names.prefix());
    }

    @Test
    void singleTopicDefaultsToChanges() {
        assertEquals("shop.changes", TopicNames.singleTopic("shop", null).changeTopic("public", "orders"));
        TopicNames named = TopicNames.singleTopic("shop", "all-rows");
        assertEquals("all-rows", named.changeTopic("x", "y"));
        assertTrue(named.isSingleTopic());
        assertEquals("shop.transactions", named.transactionsTopic());
    }

    @Test
    void sanitisesIdentifiersDeterministically() {
        TopicNames names = TopicNames.perTable("shop");
        assertEquals("shop.My_Schema.t_bl__", names.changeTopic("My Schema", "t\"bl€!"));
        assertEquals("a_b-c.d", TopicNames.sanitize("a b-c.d"));
        assertEquals(names.changeTopic("a b", "t"), names.changeTopic("a_b", "t"));
    }

    @Test
    void rejectsTooLongTopicsInsteadOfCutting() {
        TopicNames names = TopicNames.perTable("shop");
        String table = "t".repeat(240);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> names.changeTopic("public", table));
        assertTrue(e.getMessage().contains("249"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"my prefix", "a/b", "ü", "x:y"})
    void rejectsPrefixWithIllegalCharactersNamingIt(String prefix) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> TopicNames.validatePrefix(prefix));
        assertTrue(e.getMessage().contains("'" + prefix + "'"), e.getMessage());
    }

    @Test
    void rejectsEmptyDotsAndOverlongPrefixes() {
        assertThrows(IllegalArgumentException.class, () -> TopicNames.validatePrefix(""));
        assertThrows(IllegalArgumentException.class, () -> TopicNames.validatePrefix(null));
        assertThrows(IllegalArgumentException.class, () -> TopicNames.validatePrefix(".."));
        String longest = "p".repeat(TopicNames.MAX_LENGTH - ".transactions".length());
        assertEquals(longest, TopicNames.validatePrefix(longest));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> TopicNames.validatePrefix(longest + "p"));
        assertTrue(e.getMessage().contains("too long"), e.getMessage());
    }

    @Test
    void rejectsIllegalSingleTopicName() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> TopicNames.singleTopic("shop", "all rows"));
        assertTrue(e.getMessage().contains("'all rows'"), e.getMessage());
    }
}
