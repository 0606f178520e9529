package dev.pglane.source;

import java.time.Duration;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Assertions;

/** Waits for a background thread's failure to reach what rethrows it, as {@code poll()} would find it. */
public final class AwaitFailure {
    private AwaitFailure() {}

    /** The failure {@code rethrow} throws within {@code within}; fails the test when there is none by then. */
    public static ConnectException of(Runnable rethrow, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            try {
                rethrow.run();
            } catch (ConnectException e) {
                return e;
            }
            if (System.nanoTime() > deadline) {
                return Assertions.fail("no failure within " + within);
            }
            Thread.sleep(20);
        }
    }
}
