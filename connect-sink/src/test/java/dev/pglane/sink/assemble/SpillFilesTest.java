package dev.pglane.sink.assemble;

import static dev.pglane.sink.assemble.Changes.insert;
import static dev.pglane.sink.assemble.Changes.items;
import static dev.pglane.sink.assemble.Changes.orders;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.envelope.EnvelopeSchemas;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spill files of one copy on disk: merged read-back, damage surfacing through the iterator, and the
 * guard between a worker that reads and the task thread that deletes. The concurrent cases stop the
 * reader at a chosen point with latches and wait for thread states, so the interleaving is the same
 * on every run.
 */
@Timeout(60)
class SpillFilesTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final CopyKey COPY = new CopyKey(7, 1);

    @TempDir
    Path base;

    private SpillArea area;
    /** One format per copy, as the assembler keeps it: the copy's schema table lives in it. */
    private final SpillFormat format = new SpillFormat(new EnvelopeSchemas());

    @BeforeEach
    void openArea() throws IOException {
        area = SpillArea.open(base, "files-test");
    }

    @AfterEach
    void closeArea() {
        area.close();
    }

    @Test
    void runsOfTwoPartitionsMergeInTotalOrderAndTheAreaCountsTheirBytes() throws IOException {
        List<ChangeRecord> records = records(20);
        SpillFiles files = written(records, null);

        assertEquals(2, spillFiles().size(), "one run per partition");
        assertEquals(totalSize(), area.bytes());
        assertEquals(records, readAll(files.read(record -> true)));
        assertEquals(records, readAll(files.read(record -> true)), "every read goes to the files again");

        files.delete();
        files.delete();
        assertEquals(List.of(), spillFiles());
        assertEquals(0, area.bytes(), "counted once, freed once");
    }

    @Test
    void aDamagedRunFailsTheIterationNamingTheFileAndTheCopy() throws IOException {
        SpillFiles files = written(records(20), null);
        Path damaged = spillFiles().get(0);
        try (RandomAccessFile file = new RandomAccessFile(damaged.toFile(), "rw")) {
            file.seek(file.length() / 2);
            int b = file.read();
            file.seek(file.length() / 2);
            file.write(b ^ 0x10);
        }

        ConnectException e = assertThrows(ConnectException.class, () -> readAll(files.read(record -> true)));

        assertTrue(
                e.getMessage().startsWith("Spill file " + damaged + " of xid 7 generation 1 is damaged"),
                e.getMessage());
        assertEquals(1, files.openReaders(), "the failed reader is closed; the other run's waits for the delete");
        files.delete();
        assertEquals(0, files.openReaders());
    }

    @Test
    void readingAfterTheDeleteFailsInsteadOfFindingNoRecords() throws IOException {
        SpillFiles files = written(records(5), null);
        files.delete();

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> files.read(record -> true));
        assertTrue(e.getMessage().contains("spill files of xid 7 generation 1 were deleted"), e.getMessage());
    }

    @Test
    void aDeleteWhileAReaderIsBetweenRecordsClosesItAndItsNextReadFails() throws Exception {
        SpillFiles files = written(records(10), null);
        CountDownLatch atThird = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        List<ChangeRecord> seen = new ArrayList<>();
        // the worker holds no lock between records: it may be sending statements for a long time
        Predicate<ChangeRecord> keep = record -> {
            if (order(record) == 3) {
                atThird.countDown();
                await(resume);
            }
            return true;
        };
        CompletableFuture<Void> reader =
                CompletableFuture.runAsync(() -> files.read(keep).forEachRemaining(seen::add));
        assertTrue(atThird.await(DEADLINE.toSeconds(), TimeUnit.SECONDS));

        CompletableFuture.runAsync(files::delete).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertEquals(0, files.openReaders());
        assertEquals(List.of(), spillFiles());
        resume.countDown();

        Throwable failure = failureOf(reader);
        assertInstanceOf(IllegalStateException.class, failure, "not a read of a closed stream: " + failure);
        assertTrue(failure.getMessage().contains("were deleted"), failure.getMessage());
        assertTrue(seen.size() < 10, "the reader stopped: " + seen.size());
    }

    @Test
    void aDeleteWhileAReaderOpensARunWaitsForItAndClosesWhatItOpened() throws Exception {
        CountDownLatch opening = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        SpillFiles.RunOpener slowOpener = (file, count) -> {
            SpillRunReader opened = new SpillRunReader(file, COPY.toString(), format(), count);
            opening.countDown();
            await(proceed);
            return opened;
        };
        SpillFiles files = written(records(10), slowOpener);
        // the reader opens its runs and takes one record, then stops: a worker whose statement failed
        CompletableFuture<Void> reader =
                CompletableFuture.runAsync(() -> files.read(record -> true).next());
        assertTrue(opening.await(DEADLINE.toSeconds(), TimeUnit.SECONDS));

        Thread deleter = new Thread(files::delete, "deleter");
        deleter.start();
        awaitState(deleter, Set.of(Thread.State.BLOCKED, Thread.State.WAITING, Thread.State.TERMINATED));
        proceed.countDown();
        deleter.join(DEADLINE.toMillis());
        assertFalse(deleter.isAlive());
        Throwable failure = failureOf(reader);

        assertEquals(0, files.openReaders(), "no reader outlives the delete, whichever thread went first");
        assertEquals(List.of(), spillFiles());
        if (failure != null) {
            assertInstanceOf(IllegalStateException.class, failure, failure.toString());
        }
    }

    private SpillFiles written(List<ChangeRecord> records, SpillFiles.RunOpener opener) throws IOException {
        SpillFiles files = new SpillFiles(area, COPY, format(), opener);
        for (ChangeRecord record : records) {
            files.append(record);
        }
        files.finishWriting();
        return files;
    }

    private SpillFormat format() {
        return format;
    }

    /** Records of copy 7/1 on two partitions, interleaved, in total order. */
    private static List<ChangeRecord> records(int count) {
        return LongStream.rangeClosed(1, count)
                .mapToObj(order ->
                        order % 3 == 0 ? insert(7, 1, order, items(), order) : insert(7, 1, order, orders(1), order))
                .toList();
    }

    private static long order(ChangeRecord record) {
        return record.event().transaction().totalOrder();
    }

    private static List<ChangeRecord> readAll(Iterator<ChangeRecord> records) {
        List<ChangeRecord> all = new ArrayList<>();
        records.forEachRemaining(all::add);
        return all;
    }

    private List<Path> spillFiles() throws IOException {
        try (Stream<Path> files = Files.list(area.directory())) {
            return files.sorted().toList();
        }
    }

    private long totalSize() throws IOException {
        long size = 0;
        for (Path file : spillFiles()) {
            size += Files.size(file);
        }
        return size;
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("the test did not release the reader");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void awaitState(Thread thread, Set<Thread.State> states) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!states.contains(thread.getState())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(thread.getName() + " is still " + thread.getState());
            }
            Thread.onSpinWait();
        }
    }

    /** The future's failure once it completed, or null if it succeeded. */
    private static Throwable failureOf(CompletableFuture<Void> future) throws Exception {
        try {
            future.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }
}
