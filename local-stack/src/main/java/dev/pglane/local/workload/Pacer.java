package dev.pglane.local.workload;

import java.util.concurrent.TimeUnit;

/**
 * Spaces one client's transactions so that {@code clients} clients together commit {@code rate} a second, as
 * {@code pgbench --rate} does: the n-th transaction is due n intervals after the start; a client that fell behind
 * (a slow commit) starts the next at once and catches up, so the rate holds over the run, not per transaction.
 */
public final class Pacer {
    private static final Pacer UNTHROTTLED = new Pacer(0);

    private final long intervalNanos;
    private long due;

    private Pacer(long intervalNanos) {
        this.intervalNanos = intervalNanos;
    }

    /** As fast as the client can. */
    public static Pacer unthrottled() {
        return UNTHROTTLED;
    }

    /** One of {@code clients} clients that share {@code rate} transactions a second; 0: unthrottled. */
    public static Pacer share(double rate, int clients) {
        if (rate <= 0) {
            return UNTHROTTLED;
        }
        return new Pacer(Math.round(TimeUnit.SECONDS.toNanos(1) * clients / rate));
    }

    /** Waits until the next transaction is due (at once for the first, and when unthrottled). */
    public void awaitNext() throws InterruptedException {
        if (intervalNanos == 0) {
            return;
        }
        long now = System.nanoTime();
        if (due == 0) {
            due = now;
        }
        long wait = due - now;
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
        due += intervalNanos;
    }

    /** The spacing between this client's transactions, 0 when unthrottled. */
    long intervalNanos() {
        return intervalNanos;
    }
}
