package dev.pglane.sink.assemble;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
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
 */
final class SpillFiles {
    private final Path directory;
    private final CopyKey copy;
    private final SpillFormat format;
    private final List<Run> runs = new ArrayList<>();
    private final List<SpillRunReader> openReaders = new ArrayList<>();

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

    SpillFiles(Path directory, CopyKey copy, SpillFormat format) {
        this.directory = directory;
        this.copy = copy;
        this.format = format;
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
            run.writer.finish();
        }
    }

    /**
     * The records kept by {@code keep}, in {@code total_order}, read from the files.
     *
     * @throws org.apache.kafka.connect.errors.ConnectException from the iterator, naming the file, if a
     *     file is damaged
     */
    Iterator<ChangeRecord> read(Predicate<ChangeRecord> keep) {
        PriorityQueue<Cursor> heads =
                new PriorityQueue<>((a, b) -> Long.compare(totalOrder(a.head), totalOrder(b.head)));
        try {
            for (Run run : runs) {
                Cursor cursor = new Cursor(run, keep);
                if (cursor.advance()) {
                    heads.add(cursor);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the spill files of " + copy, e);
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
                try {
                    if (cursor.advance()) {
                        heads.add(cursor);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read spill file " + cursor.run.file + " of " + copy, e);
                }
                return record;
            }
        };
    }

    /** Closes any reader and writer and deletes the files. */
    void delete() {
        for (SpillRunReader reader : openReaders) {
            closeQuietly(reader);
        }
        openReaders.clear();
        for (Run run : runs) {
            closeQuietly(run.writer);
            try {
                Files.deleteIfExists(run.file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete spill file " + run.file, e);
            }
        }
        runs.clear();
    }

    private final class Cursor {
        final Run run;
        final Predicate<ChangeRecord> keep;
        final SpillRunReader in;
        ChangeRecord head;

        Cursor(Run run, Predicate<ChangeRecord> keep) throws IOException {
            this.run = run;
            this.keep = keep;
            this.in = new SpillRunReader(run.file, copy.toString(), format, run.writer.count());
            openReaders.add(in);
        }

        /** Moves to the next kept record; false (and the file closed) at the end of the run, once checked. */
        boolean advance() throws IOException {
            for (ChangeRecord record = in.next(); record != null; record = in.next()) {
                if (keep.test(record)) {
                    head = record;
                    return true;
                }
            }
            in.close();
            openReaders.remove(in);
            return false;
        }
    }

    private Run newRun(TopicPartition partition) throws IOException {
        Files.createDirectories(directory);
        Path file =
                Files.createTempFile(directory, "pglane-xid" + copy.xid() + "-g" + copy.generation() + "-", ".spill");
        SpillRunWriter writer;
        try {
            writer = new SpillRunWriter(file, format);
        } catch (IOException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        Run run = new Run(file, partition, writer);
        runs.add(run);
        return run;
    }

    private void write(Run run, ChangeRecord record) throws IOException {
        run.writer.write(record);
        run.lastTotalOrder = totalOrder(record);
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
