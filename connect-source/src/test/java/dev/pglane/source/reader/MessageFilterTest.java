package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class MessageFilterTest {

    @Test
    void dropEmitsNothingAndAnEmptySetEveryPrefix() {
        assertFalse(MessageFilter.NONE.emits("app"));
        assertTrue(new MessageFilter(true, Set.of()).emits("app"));
        assertTrue(new MessageFilter(true, Set.of()).emits(""));
    }

    @Test
    void prefixesMatchExactly() {
        MessageFilter filter = new MessageFilter(true, Set.of("app", "audit"));
        assertTrue(filter.emits("app"));
        assertTrue(filter.emits("audit"));
        assertFalse(filter.emits("App"));
        assertFalse(filter.emits("app2"));
        assertFalse(new MessageFilter(false, Set.of("app")).emits("app"), "drop wins over the prefixes");
    }
}
