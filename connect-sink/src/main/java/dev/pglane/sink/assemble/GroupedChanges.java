package dev.pglane.sink.assemble;

import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/** The changes of a group of transactions: each member's records in turn, which is commit order. */
final class GroupedChanges implements TransactionChanges {
    private final List<TransactionChanges> members;

    private final long sizeBytes;

    GroupedChanges(List<TransactionChanges> members) {
        this.members = List.copyOf(members);
        long size = 0;
        for (TransactionChanges member : members) {
            size += member.sizeBytes();
        }
        this.sizeBytes = size;
    }

    @Override
    public Iterator<ChangeRecord> iterator() {
        Iterator<TransactionChanges> next = members.iterator();
        return new Iterator<>() {
            private Iterator<ChangeRecord> current = Collections.emptyIterator();

            @Override
            public boolean hasNext() {
                while (!current.hasNext() && next.hasNext()) {
                    current = next.next().iterator();
                }
                return current.hasNext();
            }

            @Override
            public ChangeRecord next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return current.next();
            }
        };
    }

    @Override
    public long count() {
        long count = 0;
        for (TransactionChanges member : members) {
            count += member.count();
        }
        return count;
    }

    /** Summed once: the task asks on every release and every commit, and a member's size never changes. */
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
        members.forEach(TransactionChanges::close);
    }
}
