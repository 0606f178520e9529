package dev.pglane.sink.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.apply.TargetServer;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Type texts come from records, so a writer of the topics chooses them: each is looked up once, also one the target
 * has no type for, and the answers remembered are bounded.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TargetTypesTest {
    @RegisterExtension
    static final TargetServer server = new TargetServer();

    /** Sessions the target has accepted so far (PostgreSQL 14 and later count them). */
    private static long sessions() throws SQLException {
        List<String> rows = server.rows("SELECT sessions FROM pg_stat_database WHERE datname = 'postgres'");
        return Long.parseLong(rows.get(0));
    }

    @Test
    void aTextTheTargetHasNoTypeForIsLookedUpOnce() throws Exception {
        TargetTypes types = new TargetTypes(server.endpoint(), "types-test");
        long before = sessions();
        for (int i = 0; i < 20; i++) {
            assertEquals(Optional.empty(), types.resolve("no_such_type", null));
        }
        // a session's count reaches pg_stat_database when it ends
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!server.rows("SELECT 1 FROM pg_stat_activity WHERE application_name = 'types-test'")
                .isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "the lookups' sessions did not end");
            Thread.onSpinWait();
        }
        long opened = sessions() - before;
        assertTrue(opened <= 3, "sessions opened: " + opened + " (one lookup, and this test's own reads)");
    }

    @Test
    void theAnswersRememberedAreBoundedTheLeastRecentlyUsedForgottenFirst() throws SQLException {
        TargetTypes types = new TargetTypes(server.endpoint(), "types-test", 8);
        for (int i = 0; i < 20; i++) {
            types.resolve("character varying", 5 + i);
        }
        assertEquals(8, types.cached());
        assertEquals(
                Optional.of(new TargetTypes.Resolved("character varying(1)", true)),
                types.resolve("character varying", 5),
                "looked up again");
    }
}
