package dev.pglane.source.capture;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.AwaitFailure;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.seal.MessageSeal;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A watch thread that dies takes the task down with it, instead of leaving it running without noticing tables. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NewTableWatchTest {

    @Test
    void anErrorOnTheWatchThreadFailsTheTask() throws Exception {
        FailureSlot failures = new FailureSlot();
        NewTableWatch.Settings settings = new NewTableWatch.Settings(
                "shop-source",
                MessageSeal.configured("shop", "a key of sixteen characters"),
                "pglane_pub",
                null,
                name -> {
                    throw new OutOfMemoryError("injected into " + name);
                });
        ConnectException e;
        try (NewTableWatch watch = NewTableWatch.start(settings, CapturedTables.of(List.of(16384L)), failures)) {
            e = AwaitFailure.of(failures::rethrow, NewTableWatch.PERIOD.multipliedBy(3));
        }
        assertTrue(e.getMessage().contains("new-table watch of publication pglane_pub failed"), e.getMessage());
        assertTrue(e.getMessage().contains("injected into pglane-shop-source-new-tables"), e.getMessage());
    }

    @Test
    void aClosedWatchFailsNothing() {
        FailureSlot failures = new FailureSlot();
        NewTableWatch.Settings settings = new NewTableWatch.Settings(
                "shop-source",
                MessageSeal.configured("shop", "a key of sixteen characters"),
                "pglane_pub",
                null,
                name -> {
                    throw new AssertionError("a watch closed before its first check opens no connection");
                });
        NewTableWatch.start(settings, CapturedTables.of(List.of()), failures).close();
        assertDoesNotThrow(failures::rethrow);
    }
}
