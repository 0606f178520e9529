package dev.pglane.connect.avro;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * A converter call that may ask the schema registry, bounded in time. Apicurio's REST client sets no timeout on its
 * requests, so a registry that accepts a connection and never answers would hold the lane or decode thread that asked
 * for good, with no error anywhere. The call runs on a daemon thread of its own; past the timeout that thread is
 * interrupted and the caller gets a {@link RetriableException} that names the registry and the record, which ends
 * the source's session or has the sink's batch delivered again. Only calls that can reach the registry (a schema met
 * for the first time) come here: the rest stay on the caller's thread. At most {@link #MAX_THREADS} threads run such
 * calls.
 */
public final class RegistryCall {
    /** Long enough for a registry that is slow, not gone: a registration takes milliseconds. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * Calls running at once, in this JVM. A call past its time limit is interrupted, but a client that ignores the
     * interrupt keeps its thread: without a bound, a registry that never answers would take one more thread with every
     * new schema. Past the bound a call fails at once as retriable, like one that timed out.
     */
    static final int MAX_THREADS = 16;

    private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();
    /** Idle threads end after a minute; none are kept. */
    private static final ThreadPoolExecutor THREADS =
            new ThreadPoolExecutor(0, MAX_THREADS, 1, TimeUnit.MINUTES, new SynchronousQueue<>(), call -> {
                Thread thread = new Thread(call, "pglane-registry-call-" + THREAD_NUMBER.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });

    private RegistryCall() {}

    /**
     * @param registryUrl for the message
     * @param what the record, e.g. {@code "record t-0@41"}
     * @throws RetriableException if the call does not return within {@code timeout}
     */
    public static <T> T within(Duration timeout, String registryUrl, String what, Supplier<T> call) {
        Future<T> future;
        try {
            future = THREADS.submit(call::get);
        } catch (RejectedExecutionException e) {
            throw new RetriableException("All " + MAX_THREADS + " threads for schema registry calls still wait for"
                    + " calls that did not return (is the registry at " + registryUrl + " answering?); " + what
                    + " is read again later");
        }
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new RetriableException("The schema registry at " + registryUrl + " did not answer within "
                    + timeout.toMillis() + " ms for " + what + ": it accepted the connection but sent no reply");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new ConnectException("The schema registry call for " + what + " failed: " + e.getCause(), e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while the schema registry was asked about " + what, e);
        }
    }
}
