package dev.pglane.it;

import java.time.Duration;

/** Waiting on a condition with a deadline, polled every 200 ms: the one way the ITs wait for something to happen. */
final class Waits {
    private static final long POLL_MILLIS = 200;

    /** A condition that may query a server. */
    @FunctionalInterface
    interface Condition {
        boolean holds() throws Exception;
    }

    private Waits() {}

    /**
     * Returns as soon as {@code condition} holds.
     *
     * @throws IllegalStateException naming {@code what} when it still does not hold after {@code timeout}
     */
    static void until(String what, Duration timeout, Condition condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!condition.holds()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("not true after " + timeout.toSeconds() + " s: " + what);
                }
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting until " + what, e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("checking whether " + what, e);
        }
    }
}
