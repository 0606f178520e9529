package dev.pglane.local.consistency;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The keys of the rows a {@link ConsistencySession} created and may change later, by table. A transaction or
 * savepoint that is rolled back takes its rows with it, so the session takes a {@link #snapshot()} before and
 * {@link #restore}s it after: the keys always name rows that exist on the source.
 */
final class SessionKeys {
    /** A row of {@code composite}. */
    record CompositeKey(String region, long id) {}

    /** Copies of the lists at one moment. */
    record Snapshot(List<Long> groups, List<Long> docs, List<Long> typed, List<CompositeKey> composites) {}

    private List<Long> groups = new ArrayList<>();
    private List<Long> docs = new ArrayList<>();
    private List<Long> typed = new ArrayList<>();
    private List<CompositeKey> composites = new ArrayList<>();

    List<Long> groups() {
        return groups;
    }

    List<Long> docs() {
        return docs;
    }

    List<Long> typed() {
        return typed;
    }

    List<CompositeKey> composites() {
        return composites;
    }

    Snapshot snapshot() {
        return new Snapshot(
                new ArrayList<>(groups), new ArrayList<>(docs), new ArrayList<>(typed), new ArrayList<>(composites));
    }

    void restore(Snapshot snapshot) {
        groups = new ArrayList<>(snapshot.groups());
        docs = new ArrayList<>(snapshot.docs());
        typed = new ArrayList<>(snapshot.typed());
        composites = new ArrayList<>(snapshot.composites());
    }

    /** One of {@code keys}, drawn by {@code random}; the list must not be empty. */
    static <T> T pick(List<T> keys, Random random) {
        return keys.get(random.nextInt(keys.size()));
    }
}
