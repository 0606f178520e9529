package dev.pglane.sink.schedule;

import dev.pglane.sink.target.TableName;
import java.util.Collections;
import java.util.Set;

/**
 * What one source transaction writes on the target, as far as scheduling needs to know: the unique
 * key values it touches, the tables it touches, and the tables it changes without a key (so every
 * row of them counts as touched). A <em>barrier</em> stands for a transaction that cannot be tracked
 * by key (a TRUNCATE, a table or column the target does not have yet, a spilled transaction): it runs
 * alone, after every earlier transaction and before every later one (parallel-apply.md R4, R5).
 */
public final class WriteSet {
    private final String barrierReason;
    private final Set<WriteKey> keys;
    private final Set<TableName> tables;
    private final Set<TableName> tableWide;

    private WriteSet(String barrierReason, Set<WriteKey> keys, Set<TableName> tables, Set<TableName> tableWide) {
        this.barrierReason = barrierReason;
        // Not Set.copyOf: its open addressing takes quadratic time on the near-sequential hash codes of a
        // large transaction's keys (the 80,000 keys of a 40,000-row snapshot chunk took 20 s, on the task
        // thread), and a copy would double the memory of a chunk's write set.
        this.keys = Collections.unmodifiableSet(keys);
        this.tables = Set.copyOf(tables);
        this.tableWide = Set.copyOf(tableWide);
    }

    /** A transaction that runs alone; {@code reason} says why, for the log. */
    public static WriteSet barrier(String reason) {
        return new WriteSet(reason, Set.of(), Set.of(), Set.of());
    }

    /**
     * A transaction tracked by key.
     *
     * @param keys the key values it writes, handed over: the caller must not change them afterwards
     * @param tables every table it writes
     * @param tableWide the tables it updates or deletes from without a key to track rows by
     */
    public static WriteSet of(Set<WriteKey> keys, Set<TableName> tables, Set<TableName> tableWide) {
        if (!tables.containsAll(tableWide)) {
            throw new IllegalArgumentException("table-wide tables " + tableWide + " must be among " + tables);
        }
        return new WriteSet(null, keys, tables, tableWide);
    }

    public boolean isBarrier() {
        return barrierReason != null;
    }

    public Set<WriteKey> keys() {
        return keys;
    }

    public Set<TableName> tables() {
        return tables;
    }

    public Set<TableName> tableWide() {
        return tableWide;
    }

    @Override
    public String toString() {
        if (isBarrier()) {
            return "barrier (" + barrierReason + ")";
        }
        return keys.size() + " keys on " + tables + (tableWide.isEmpty() ? "" : ", table-wide on " + tableWide);
    }
}
