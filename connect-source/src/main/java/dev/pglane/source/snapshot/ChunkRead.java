package dev.pglane.source.snapshot;

import dev.pglane.source.pgoutput.TupleData;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One read of one chunk, from the thread that reads it to the reader thread that sends it: the window the reader
 * keeps between the watermarks, the rows and snapshot the thread hands over before writing the high watermark, and
 * the outcome the reader decides at the high watermark.
 */
final class ChunkRead {
    final Chunk chunk;
    final long serial;
    final ChunkWindow window;
    private volatile List<TupleData> rows;
    private volatile ReadSnapshot snapshot;
    private volatile boolean sent;
    private final CountDownLatch decided = new CountDownLatch(1);

    ChunkRead(Chunk chunk, long serial) {
        this.chunk = chunk;
        this.serial = serial;
        this.window = new ChunkWindow(chunk);
    }

    /** Called by the reading thread before it writes the high watermark. */
    void buffered(List<TupleData> read, ReadSnapshot under) {
        this.snapshot = under;
        this.rows = read;
    }

    /** The rows, or {@code null} if they were not handed over (the high watermark of a failed read). */
    List<TupleData> rows() {
        return rows;
    }

    ReadSnapshot snapshot() {
        return snapshot;
    }

    /** Called by the reader thread: the chunk went out ({@code true}) or must be read again. */
    void decide(boolean wasSent) {
        this.sent = wasSent;
        decided.countDown();
    }

    /**
     * Waits for the reader to reach the high watermark.
     *
     * @return whether the chunk was sent, or {@code null} if the wait timed out
     */
    Boolean awaitDecision(long timeout, TimeUnit unit) throws InterruptedException {
        return decided.await(timeout, unit) ? sent : null;
    }
}
