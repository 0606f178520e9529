package dev.pglane.sink.assemble;

import java.util.Iterator;
import java.util.List;

/**
 * Test changes: records already in {@code total_order}, held in a list; {@code spilled} only says so,
 * for code that treats spilled transactions differently.
 */
public record ListedChanges(List<ChangeRecord> records, boolean spilled) implements TransactionChanges {
    public ListedChanges {
        records = List.copyOf(records);
    }

    public static ListedChanges of(List<ChangeRecord> records) {
        return new ListedChanges(records, false);
    }

    @Override
    public Iterator<ChangeRecord> iterator() {
        return records.iterator();
    }

    @Override
    public long count() {
        return records.size();
    }

    @Override
    public long sizeBytes() {
        return records.stream().mapToLong(ChangeRecord::sizeBytes).sum();
    }

    @Override
    public void close() {}
}
