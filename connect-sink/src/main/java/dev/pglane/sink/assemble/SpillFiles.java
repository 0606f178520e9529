package dev.pglane.sink.assemble;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;

/**
 * The spill files of one copy: a set of runs, each a file of records in ascending {@code total_order}
 * ({@link SpillFraming}), read back by merging the runs.
 *
 * <p>Records of one copy reach one partition in stream order, so appending each record to a run of
 * its partition keeps every run sorted; a record that would break a run's order (a producer retry
 * reordered it) starts a new run. Reading opens every run and merges them, so each iteration reads
 * the files again and a retried transaction gets the same records twice.
 *
 * <p>Threads: the task thread writes, until {@link #finishWriting()}, and deletes; apply workers read
 * the released copy. A worker may still be reading when the task thread closes the transaction (it
 * stops, or throws its pipeline away after a lost connection), so the open readers, the list of runs
 * and whether the files are gone are guarded by one lock, held for each open, each record and the
 * delete: a delete waits for at most one record, closes every reader, and any read after it fails
 * instead of finding no file or no run.
 */
final class SpillFiles {
    private final SpillArea area;
    private final CopyKey copy;
    private final SpillFormat format;
    private final RunOpener opener;
    private final Object lock = new Object();
    /** Changed under {@link #lock}, by the task thread only, which may read it without. */
    private final List<Run> runs = new ArrayList<>();
    /** Guarded by {@link #lock}. */
    private final Set<SpillRunReader> openReaders = new HashSet<>();
    /** Guarded by {@link #lock}. */
    private boolean deleted;
    /** Bytes of all runs; the task thread's. */
    private long bytes;

    /** Opens a run for reading; a seam for tests that stop a reader where they choose. */
    @FunctionalInterface
    interface RunOpener {
        SpillRunReader open(Path file, long count) throws IOException;
    }

    /** One run file: its writer and order are the task thread's; once written, any thread reads it. */
    private static final class Run {
        final Path file;
        final TopicPartition partition;
        final SpillRunWriter writer;
        long lastTotalOrder;

        Run(Path file, TopicPartition partition, SpillRunWriter writer) {
            this.file = file;
            this.partition = partition;
            this.writer = writer;
        }
    }

    SpillFiles(SpillArea area, CopyKey copy, SpillFormat format) {
        this(area, copy, format, null);
    }

    /** For testing: {@code opener} opens the runs for reading, {@code null} for the real reader. */
    SpillFiles(SpillArea area, CopyKey copy, SpillFormat format, RunOpener opener) {
        this.area = area;
        this.copy = copy;
        this.format = format;
        this.opener =
                opener != null ? opener : (file, count) -> new SpillRunReader(file, copy.toString(), format, count);
    }

    /** Writes records already sorted by {@code total_order} as one run. */
    void writeSorted(Collection<ChangeRecord> sorted) throws IOException {
        Run run = newRun(null);
        for (ChangeRecord record : sorted) {
            write(run, record);
        }
    }

    /** Appends one record to a run of its partition that it keeps sorted, or to a new run. */
    void append(ChangeRecord record) throws IOException {
        long order = totalOrder(record);
        Run target = null;
        for (Run run : runs) {
            if (record.partition().equals(run.partition) && run.lastTotalOrder < order) {
                target = run;
                break;
            }
        }
        write(target == null ? newRun(record.partition()) : target, record);
    }

    /** Writes each run's trailer and closes the writers: no more records come. */
    void finishWriting() throws IOException {
        for (Run run : runs) {
            added(run.writer.finish());
        }
    }

    /** Bytes of the files so far. Only for the task thread. */
    long bytes() {
        return bytes;
    }

    /**
     * The records kept by {@code keep}, in {@code total_order}, read from the files.
     *
     * @throws IllegalStateException if the files were deleted, also from the returned iterator
     * @throws org.apache.kafka.connect.errors.ConnectException from the iterator, naming the file, if a
     *     file is damaged
     */
    Iterator<ChangeRecord> read(Predicate<ChangeRecord> keep) {
        List<Run> toRead;
        synchronized (lock) {
            requireFiles();
            toRead = List.copyOf(runs);
        }
        PriorityQueue<Cursor> heads =
                new PriorityQueue<>((a, b) -> Long.compare(totalOrder(a.head), totalOrder(b.head)));
        for (Run run : toRead) {
            Cursor cursor = new Cursor(run, keep);
            if (cursor.advance()) {
                heads.add(cursor);
            }
        }
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return !heads.isEmpty();
            }

            @Override
            public ChangeRecord next() {
                Cursor cursor = heads.poll();
                if (cursor == null) {
                    throw new NoSuchElementException();
                }
                ChangeRecord record = cursor.head;
                if (cursor.advance()) {
                    heads.add(cursor);
                }
                return record;
            }
        };
    }

    /** Closes every reader and writer and deletes the files; reading afterwards fails. Idempotent. */
    void delete() {
        long freed = 0;
        IOException failure = null;
        synchronized (lock) {
            if (deleted) {
                return;
            }
            deleted = true;
            openReaders.forEach(SpillFiles::closeQuietly);
            openReaders.clear();
            for (Run run : runs) {
                closeQuietly(run.writer);
                try {
                    Files.deleteIfExists(run.file);
                    freed += run.writer.bytes();
                } catch (IOException e) {
                    failure = failure == null ? e : failure;
                }
            }
        }
        area.removed(freed);
        if (failure != null) {
            throw new UncheckedIOException("cannot delete the spill files of " + copy, failure);
        }
    }

    /** Readers open now; for tests. */
    int openReaders() {
        synchronized (lock) {
            return openReaders.size();
        }
    }

    /** One run being read: its reader and the next record it keeps. */
    private final class Cursor {
        final Run run;
        final Predicate<ChangeRecord> keep;
        final SpillRunReader reader;
        ChangeRecord head;

        Cursor(Run run, Predicate<ChangeRecord> keep) {
            this.run = run;
            this.keep = keep;
            this.reader = open(run);
        }

        /** Moves to the next kept record; false (and the reader closed) at the end of the run. */
        boolean advance() {
            for (ChangeRecord record = next(this); record != null; record = next(this)) {
                if (keep.test(record)) {
                    head = record;
                    return true;
                }
            }
            return false;
        }
    }

    private SpillRunReader open(Run run) {
        synchronized (lock) {
            requireFiles();
            try {
                SpillRunReader reader = opener.open(run.file, run.writer.count());
                openReaders.add(reader);
                return reader;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open spill file " + run.file + " of " + copy, e);
            }
        }
    }

    /** The cursor's next record, or null at the end of its run; the lock keeps a delete out meanwhile. */
    private ChangeRecord next(Cursor cursor) {
        synchronized (lock) {
            requireFiles();
            SpillRunReader reader = cursor.reader;
            try {
                ChangeRecord record = reader.next();
                if (record == null) {
                    openReaders.remove(reader);
                    reader.close();
                }
                return record;
            } catch (IOException e) {
                forget(reader);
                throw new UncheckedIOException("cannot read spill file " + cursor.run.file + " of " + copy, e);
            } catch (RuntimeException e) {
                forget(reader);
                throw e;
            }
        }
    }

    private void forget(SpillRunReader reader) {
        openReaders.remove(reader);
        closeQuietly(reader);
    }

    private void requireFiles() {
        if (deleted) {
            throw new IllegalStateException("the spill files of " + copy
                    + " were deleted: its transaction was closed (the task stopped or restarts its pipeline)");
        }
    }

    private Run newRun(TopicPartition partition) throws IOException {
        Path file = area.newFile("xid" + copy.xid() + "-g" + copy.generation() + "-");
        SpillRunWriter writer;
        try {
            writer = new SpillRunWriter(file, format);
        } catch (IOException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        Run run = new Run(file, partition, writer);
        synchronized (lock) {
            runs.add(run);
        }
        added(writer.bytes());
        return run;
    }

    private void write(Run run, ChangeRecord record) throws IOException {
        added(run.writer.write(record));
        run.lastTotalOrder = totalOrder(record);
    }

    private void added(long written) {
        bytes += written;
        area.added(written);
    }

    private static long totalOrder(ChangeRecord record) {
        return record.event().transaction().totalOrder();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // the file is deleted next (or was already): nothing is lost by a failed close
        }
    }
}
