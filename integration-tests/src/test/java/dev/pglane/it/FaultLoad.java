package dev.pglane.it;

import dev.pglane.local.workload.ChangeWorkload;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The steady load of a fault story: {@link ChangeWorkload} sessions committing small transactions on the source in
 * the background until the story sets its end ({@link #endIn}), so that a fault finds the source emitting and the
 * sink applying however long the pipeline took to get there, and the load goes on through the fault.
 *
 * <p>A fault of the source server itself ends the sessions with a lost connection; {@link #awaitCutBySource()}
 * accepts that ending (the transactions they committed before are on the source, what they had open was rolled
 * back), {@link #await()} does not.
 */
final class FaultLoad {
    private static final int CLIENTS = 2;
    /** The end of a load whose story never set one, e.g. because it failed before its fault. */
    private static final Duration LONGEST = Duration.ofSeconds(150);

    private final AtomicLong endNanos = new AtomicLong(System.nanoTime() + LONGEST.toNanos());
    private final CompletableFuture<ChangeWorkload.Result> run;

    private FaultLoad(ChangeWorkload workload) {
        this.run = CompletableFuture.supplyAsync(() -> {
            try {
                return workload.runUntil(CLIENTS, endNanos::get);
            } catch (SQLException e) {
                throw new CompletionException(e);
            }
        });
    }

    /** Starts {@value #CLIENTS} sessions committing until {@link #endIn} says otherwise. */
    static FaultLoad start(ChangeWorkload workload) {
        return new FaultLoad(workload);
    }

    /** The sessions commit for {@code duration} more, then end. */
    void endIn(Duration duration) {
        endNanos.set(System.nanoTime() + duration.toNanos());
    }

    boolean isRunning() {
        return !run.isDone();
    }

    /** Waits for the load to end; it must end on its own, every session without error. */
    ChangeWorkload.Result await() throws SQLException {
        try {
            return run.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw e;
        }
    }

    /** Waits for the load to end: on its own, or cut off by the source server going away. */
    void awaitCutBySource() throws SQLException {
        try {
            run.join();
        } catch (CompletionException e) {
            if (!(e.getCause() instanceof SQLException sql && isConnectionLoss(sql))) {
                throw e;
            }
        }
    }

    /** Connection exceptions (class 08) and server shutdown (57P01-57P03). */
    private static boolean isConnectionLoss(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.startsWith("57P0"));
    }
}
