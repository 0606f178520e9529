package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableFilterTest {
    @Test
    void noListsCaptureEverything() {
        TableFilter filter = new TableFilter(List.of(), List.of());
        assertTrue(filter.capturesAll());
        assertTrue(filter.captures("any", "table"));
    }

    @Test
    void includeListMatchesWholeName() {
        TableFilter filter = new TableFilter(List.of("public\\.orders", "sales\\..*"), List.of());
        assertFalse(filter.capturesAll());
        assertTrue(filter.captures("public", "orders"));
        assertTrue(filter.captures("sales", "items"));
        assertFalse(filter.captures("public", "orders_archive"));
        assertFalse(filter.captures("xpublic", "orders"));
    }

    @Test
    void excludeListCapturesTheRest() {
        TableFilter filter = new TableFilter(List.of(), List.of("audit\\..*"));
        assertFalse(filter.capturesAll());
        assertTrue(filter.captures("public", "orders"));
        assertFalse(filter.captures("audit", "log"));
    }
}
