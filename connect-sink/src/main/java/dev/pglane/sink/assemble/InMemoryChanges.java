package dev.pglane.sink.assemble;

import java.util.Iterator;
import java.util.List;

/** The records of a released copy that stayed in memory, already sorted by {@code total_order}. */
final class InMemoryChanges implements TransactionChanges {
    private List<ChangeRecord> records;
    private final long sizeBytes;

    InMemoryChanges(List<ChangeRecord> sorted, long sizeBytes) {
        this.records = List.copyOf(sorted);
        this.sizeBytes = sizeBytes;
    }

    @Override
    public Iterator<ChangeRecord> iterator() {
        if (records == null) {
            throw new IllegalStateException("the changes were closed");
        }
        return records.iterator();
    }

    @Override
    public long count() {
        return records == null ? 0 : records.size();
    }

    @Override
    public long sizeBytes() {
        return sizeBytes;
    }

    @Override
    public boolean spilled() {
        return false;
    }

    @Override
    public void close() {
        records = null;
    }
}
