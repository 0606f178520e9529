package dev.pglane.sink.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.sink.target.TableName;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DependencyTrackerTest {
    private static final TableName T = new TableName("public", "t");
    private static final TableName U = new TableName("public", "u");

    private static WriteSet keys(int... ids) {
        Set<WriteKey> keys = new HashSet<>();
        for (int id : ids) {
            keys.add(new WriteKey(T, List.of("id"), List.of(id)));
        }
        return WriteSet.of(keys, Set.of(T), Set.of());
    }

    private static WriteSet tableWide(TableName table) {
        return WriteSet.of(Set.of(), Set.of(table), Set.of(table));
    }

    @Test
    void waitsForTheLastWriterOfAnyOfItsKeys() {
        DependencyTracker tracker = new DependencyTracker(1000);
        assertEquals(0, tracker.register(1, keys(1), 0));
        assertEquals(0, tracker.register(2, keys(2), 0));
        assertEquals(2, tracker.register(3, keys(1, 2), 0));
        assertEquals(0, tracker.register(4, keys(3), 0));
        assertEquals(3, tracker.register(5, keys(1), 0));
    }

    @Test
    void tableWideWaitsForEveryWriterOfTheTableAndTheyWaitForIt() {
        DependencyTracker tracker = new DependencyTracker(1000);
        tracker.register(1, keys(1), 0);
        tracker.register(2, WriteSet.of(Set.of(), Set.of(U), Set.of()), 0);
        assertEquals(1, tracker.register(3, tableWide(T), 0));
        assertEquals(3, tracker.register(4, keys(9), 0));
        assertEquals(2, tracker.register(5, tableWide(U), 0));
        assertEquals(4, tracker.register(6, tableWide(T), 0));
    }

    @Test
    void barrierFollowsEverythingAndEverythingFollowsIt() {
        DependencyTracker tracker = new DependencyTracker(1000);
        tracker.register(1, keys(1), 0);
        tracker.register(2, keys(2), 0);
        assertEquals(2, tracker.register(3, WriteSet.barrier("ddl"), 0));
        assertEquals(0, tracker.size(), "nothing before a barrier can matter again");
        assertEquals(3, tracker.register(4, keys(1), 0));
        assertEquals(3, tracker.register(5, keys(7), 0));
    }

    @Test
    void overfullHistoryForgetsCommittedEntriesFirst() {
        DependencyTracker tracker = new DependencyTracker(4);
        tracker.register(1, keys(1, 2), 0);
        tracker.register(2, keys(3, 4), 0);
        // keys 1-4 and table t exceed 4 entries: sequence 1 committed, so its keys go and t (of 2) stays
        assertEquals(2, tracker.register(3, keys(4), 1));
        assertEquals(0, tracker.register(4, keys(1), 1));
    }

    @Test
    void historyStillTooLargeIsClearedAndTheNextWaitsForAll() {
        DependencyTracker tracker = new DependencyTracker(4);
        tracker.register(1, keys(1, 2), 0);
        tracker.register(2, keys(3, 4), 0);
        assertEquals(2, tracker.register(3, keys(9), 0));
        assertEquals(2, tracker.register(4, keys(8), 0));
        assertEquals(3, tracker.register(5, keys(9), 0));
    }
}
