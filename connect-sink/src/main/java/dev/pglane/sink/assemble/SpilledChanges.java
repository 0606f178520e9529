package dev.pglane.sink.assemble;

import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/**
 * The records of a released copy that lives in spill files: every iteration reads the files again
 * in {@code total_order}, leaving out the records of aborted subtransactions (which were written
 * before their ABORT arrived). {@link #close()} deletes the files; iterating after it, also from a worker
 * that was still reading, fails ({@link SpillFiles} guards what the threads share).
 */
final class SpilledChanges implements TransactionChanges {
    private final SpillFiles files;
    private final Set<Long> cancelledSubxids;
    private final long count;
    private final long sizeBytes;

    SpilledChanges(SpillFiles files, Set<Long> cancelledSubxids, long count, long sizeBytes) {
        this.files = files;
        // a HashSet: subxid is null for non-streamed records, and Set.copyOf rejects contains(null)
        this.cancelledSubxids = new HashSet<>(cancelledSubxids);
        this.count = count;
        this.sizeBytes = sizeBytes;
    }

    @Override
    public Iterator<ChangeRecord> iterator() {
        return files.read(record ->
                !cancelledSubxids.contains(record.event().transaction().subxid()));
    }

    @Override
    public long count() {
        return count;
    }

    @Override
    public long sizeBytes() {
        return sizeBytes;
    }

    @Override
    public boolean spilled() {
        return true;
    }

    @Override
    public void close() {
        files.delete();
    }
}
