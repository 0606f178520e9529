package dev.pglane.sink.schedule;

import dev.pglane.sink.target.TableName;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Turns each submitted transaction's {@link WriteSet} into the one number it waits for: the highest
 * earlier sequence it conflicts with. One number suffices because commits happen in sequence order,
 * so once that transaction committed, every earlier one has too (MySQL's {@code last_committed},
 * parallel-apply.md §2). Used by the submitting thread only.
 */
final class DependencyTracker {
    private final int maxEntries;
    private final Map<WriteKey, Long> keyWriters = new HashMap<>();
    private final Map<TableName, Long> tableWriters = new HashMap<>();
    private final Map<TableName, Long> tableWideWriters = new HashMap<>();
    /** Every later transaction waits for this one: the last barrier, or where the history was cleared. */
    private long floor;

    DependencyTracker(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    /**
     * Records {@code writes} as sequence {@code sequence} and returns the sequence it must wait for.
     *
     * @param committed the committed sequence now, below which history may be forgotten
     */
    long register(long sequence, WriteSet writes, long committed) {
        if (writes.isBarrier()) {
            clear(sequence);
            return sequence - 1;
        }
        bound(sequence, committed);
        long dependsOn = floor;
        // one lookup per key: a write set holds each key once, so recording it before reading the next one is safe
        for (WriteKey key : writes.keys()) {
            Long writer = keyWriters.put(key, sequence);
            if (writer != null) {
                dependsOn = Math.max(dependsOn, writer);
            }
        }
        dependsOn = Math.max(dependsOn, latest(tableWideWriters, writes.tables()));
        dependsOn = Math.max(dependsOn, latest(tableWriters, writes.tableWide()));
        for (TableName table : writes.tables()) {
            tableWriters.put(table, sequence);
        }
        for (TableName table : writes.tableWide()) {
            tableWideWriters.put(table, sequence);
        }
        return dependsOn;
    }

    /** Keys, tables and table-wide tables remembered. */
    int size() {
        return keyWriters.size() + tableWriters.size() + tableWideWriters.size();
    }

    private static long latest(Map<TableName, Long> writers, Set<TableName> tables) {
        long latest = 0;
        for (TableName table : tables) {
            latest = Math.max(latest, writers.getOrDefault(table, 0L));
        }
        return latest;
    }

    /**
     * Keeps the history within bounds: entries at or below {@code committed} no longer delay anyone and
     * go first; if that is not enough, everything goes and {@code sequence} waits for all before it.
     */
    private void bound(long sequence, long committed) {
        if (size() <= maxEntries) {
            return;
        }
        keyWriters.values().removeIf(writer -> writer <= committed);
        tableWriters.values().removeIf(writer -> writer <= committed);
        tableWideWriters.values().removeIf(writer -> writer <= committed);
        if (size() > maxEntries) {
            clear(sequence - 1);
        }
    }

    private void clear(long newFloor) {
        keyWriters.clear();
        tableWriters.clear();
        tableWideWriters.clear();
        floor = Math.max(floor, newFloor);
    }
}
