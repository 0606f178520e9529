package dev.pglane.sink.assemble;

/**
 * The change records of one complete source transaction, in {@code total_order}. They are held in
 * memory or, for a transaction larger than the buffer, in spill files read back on each iteration,
 * so a retried transaction can be iterated again.
 */
public interface TransactionChanges extends Iterable<ChangeRecord>, AutoCloseable {

    /** Number of change records (after ABORT cancellations). */
    long count();

    /** Estimated bytes of the records (in memory or on disk). */
    long sizeBytes();

    /** True if the records live in spill files rather than in memory. */
    boolean spilled();

    /** Releases the memory and deletes any spill files; iterating afterwards is an error. */
    @Override
    void close();
}
