package dev.pglane.source.emit;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The first failure of a session's background threads (reader, decoder lanes), kept until the poll
 * thread rethrows it: Connect only learns of a failure from {@code poll()}. Later failures are usually
 * consequences of the first (a lane stopped because the reader closed the session), so they are dropped.
 */
public final class FailureSlot {
    private final AtomicReference<ConnectException> failure = new AtomicReference<>();

    /** Keeps {@code e} unless a failure is already stored. */
    public void fail(ConnectException e) {
        failure.compareAndSet(null, e);
    }

    /** Throws the stored failure, if any. */
    public void rethrow() {
        ConnectException e = failure.get();
        if (e != null) {
            throw e;
        }
    }
}
