package dev.pglane.connect.avro;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * The registry ids of the schemas a set of {@link AvroWriter}s (one per decoder lane, all writing keys, or all values)
 * have registered, shared among them: the first writer to meet a Connect schema on a topic registers it, and a writer
 * that meets it meanwhile waits for that id instead of asking the registry again. Each lane had registered every
 * schema itself, so a source with N lanes made N registry calls per table and topic at its start, one after the
 * other on each lane, where one does. Connect schemas are told apart by identity, as in {@link AvroWriter}.
 * Thread-safe.
 */
public final class SchemaIds {
    private final ConcurrentHashMap<Key, CompletableFuture<Integer>> ids = new ConcurrentHashMap<>();

    /** A Connect schema, by identity, on a topic. */
    private record Key(Schema schema, String topic) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key other && schema == other.schema && topic.equals(other.topic);
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(schema) + topic.hashCode();
        }
    }

    /**
     * Claims the registration of {@code schema} on {@code topic}.
     *
     * @return null if the caller is the first to meet it: it registers the schema, then calls {@link #registered}
     *     or {@link #failed}; else the id another writer registered or is registering
     */
    CompletableFuture<Integer> claim(Schema schema, String topic) {
        return ids.putIfAbsent(new Key(schema, topic), new CompletableFuture<>());
    }

    /** The claimant registered the schema: the writers waiting for it, and all later ones, take {@code id}. */
    void registered(Schema schema, String topic, int id) {
        ids.get(new Key(schema, topic)).complete(id);
    }

    /** The claimant could not register it: the writers waiting fail too, and the next one to meet it claims it. */
    void failed(Schema schema, String topic, RuntimeException cause) {
        ids.remove(new Key(schema, topic)).completeExceptionally(cause);
    }

    /** The id {@link #claim} promised, waiting up to {@code timeout} for the writer registering it. */
    static int await(CompletableFuture<Integer> registering, Duration timeout, String registryUrl, String what) {
        try {
            return registering.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new RetriableException("The schema registry at " + registryUrl + " did not answer within "
                    + timeout.toMillis() + " ms for " + what + ", registered by another lane");
        } catch (ExecutionException e) {
            // the writer that registered failed; this record is written again and its writer registers then
            throw e.getCause() instanceof RuntimeException runtime
                    ? runtime
                    : new ConnectException("The schema registry call for " + what + " failed: " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while another lane asked the schema registry about " + what, e);
        }
    }
}
