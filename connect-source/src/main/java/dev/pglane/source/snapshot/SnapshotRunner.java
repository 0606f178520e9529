package dev.pglane.source.snapshot;

import dev.pglane.source.ConnectionLoss;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.signal.SnapshotFilter;
import dev.pglane.source.values.SessionSettings;
import dev.pglane.wire.marker.SnapshotChunk;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.postgresql.PGProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot of one replication session: {@code snapshot.threads} threads, each with a connection of its own, take
 * the next chunk (a chunk to read again first, then the next cut of the first table not yet cut through), read it
 * between its watermarks, and read on while the reader thread carries it to its high watermark, with up to two chunks
 * out per thread. Tables are cut one after the
 * other, so a big table's chunks are read by every thread at once. The stream never waits for a chunk: the reader
 * only looks at its watermarks when it passes them.
 *
 * <p>What the reader thread decides at a high watermark (sent, or read again) comes back through {@link #sent} and
 * {@link #retry}, which also keep the progress the source offset carries.
 */
public final class SnapshotRunner implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SnapshotRunner.class);
    /** Reads of one chunk that the stream may spoil (a schema change, a streamed transaction) before the task fails. */
    static final int MAX_ATTEMPTS = 20;

    private final SnapshotReadSettings settings;
    private final FailureSlot failures;
    private final List<TableChunks> tables = new ArrayList<>();
    private final Map<String, TableChunks> byName = new HashMap<>();
    private final Map<String, TableStats> stats = new HashMap<>();
    private final Deque<Chunk> again = new ArrayDeque<>();
    private final Map<String, Integer> attempts = new HashMap<>();
    private final Map<Long, ChunkRead> reads = new ConcurrentHashMap<>();
    private final Set<Integer> pending = ConcurrentHashMap.newKeySet();
    private final Map<Integer, SnapshotTable> byOid = new ConcurrentHashMap<>();
    private final Map<String, SnapshotTable> published = new HashMap<>();
    private volatile boolean paused;
    private final List<Thread> threads = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();
    private volatile boolean stopping;
    private SnapshotProgress progress;
    private final long startNanos = System.nanoTime();
    private long rowsSent;
    private long chunksSent;
    private final PaceHold hold;
    /** Chunks being read or on their way to their high watermark: rows the pace's reading does not show yet. */
    private int chunksOut;

    /**
     * Where the snapshot stands, for the metrics.
     *
     * @param rowsEstimated the rows of the tables still to send when the session started, as the statistics
     *     estimate them
     * @param secondsLeft at the rate so far, the time until {@code rowsEstimated} are sent; -1 before the first chunk
     * @param heldMillis how long new chunks have waited for the pace ({@code snapshot.pace.group})
     */
    public record Standing(
            int tables,
            int tablesDone,
            long chunksSent,
            long rowsSent,
            long rowsEstimated,
            double secondsLeft,
            long heldMillis) {}

    private static final class TableStats {
        final long startNanos = System.nanoTime();
        long rows;
        long chunks;
    }

    private SnapshotRunner(SnapshotReadSettings settings, SnapshotProgress progress, FailureSlot failures) {
        this.settings = settings;
        this.progress = progress;
        this.failures = failures;
        this.hold = new PaceHold(settings.connectorName(), settings.pace());
    }

    /**
     * Plans the rest of the snapshot {@code progress} describes over the tables the publication now sends, or, with
     * {@code progress} null, a new snapshot of all of them (its id the run's generation); a table of the snapshot that
     * is no longer published is done, with a warning.
     *
     * @return the runner, or {@code null} when no table is left to send
     */
    public static SnapshotRunner plan(
            SnapshotReadSettings settings,
            SnapshotProgress progress,
            Connection sql,
            String publication,
            FailureSlot failures)
            throws SQLException {
        Map<String, SnapshotTable> published = new LinkedHashMap<>();
        for (SnapshotTable table : SnapshotCatalog.tables(sql, publication)) {
            if (!table.name().equals(settings.signalTable())) {
                published.put(table.name(), table);
            }
        }
        SnapshotProgress planned = progress != null
                ? progress
                : SnapshotProgress.start(String.valueOf(settings.generation()), List.copyOf(published.keySet()));
        SnapshotRunner runner = new SnapshotRunner(settings, planned, failures);
        runner.published.putAll(published);
        for (Map.Entry<String, ChunkBound> remaining : planned.remaining().entrySet()) {
            runner.include(remaining.getKey(), remaining.getValue(), publication);
        }
        if (runner.progress.complete()) {
            // no chunk would ever carry the snapshot's end into the offsets
            log.info(
                    "pglane source {}: snapshot {} has no table to send",
                    settings.connectorName(),
                    planned.snapshotId());
            return null;
        }
        return runner;
    }

    /**
     * Takes {@code name} into the snapshot from {@code resumeAt}, or marks it done when it is not published or its
     * filter does not fit it.
     */
    private void include(String name, ChunkBound resumeAt, String publication) {
        SnapshotTable table = published.get(name);
        SnapshotFilter filter = progress.filter(name);
        String refusal = table == null ? "it is not published by " + publication : table.refusal(filter);
        if (refusal != null) {
            log.warn("Snapshot {}: table {} is left out: {}", progress.snapshotId(), name, refusal);
            progress = progress.with(name, null, true);
            return;
        }
        long rows = table.rowsPerChunk(settings.chunkRows(), settings.chunkBytes());
        if (rows < settings.chunkRows()) {
            log.info(
                    "Snapshot {}: table {} is read {} rows per chunk: its rows average {} bytes",
                    progress.snapshotId(),
                    name,
                    rows,
                    table.estimatedBytes() / table.estimatedRows());
        }
        TableChunks chunks = new TableChunks(table, resumeAt, progress.sentAhead(name), rows, filter);
        tables.add(chunks);
        byName.put(table.name(), chunks);
        pending.add(table.oid());
        byOid.put(table.oid(), table);
    }

    /**
     * Adds tables to the snapshot under way (a signal asked for them, {@code filters} naming those of which only some
     * rows); a table still being sent goes on as it is. Reader thread.
     */
    synchronized void add(List<String> names, Map<String, SnapshotFilter> filters) {
        for (String name : names) {
            TableChunks current = byName.get(name);
            if (current != null && !current.done()) {
                log.info(
                        "Snapshot {}: table {} is being sent already; it goes on as it is",
                        progress.snapshotId(),
                        name);
                continue;
            }
            if (current != null) {
                tables.remove(current);
                byName.remove(name);
            }
            progress = progress.restart(name, filters.get(name));
            include(name, progress.remaining().get(name), "the publication");
        }
        notifyAll();
    }

    /** Stops reading new chunks, or goes on; chunks being read are sent. */
    synchronized void pause(boolean pause) {
        paused = pause;
        notifyAll();
    }

    /** Starts the reading threads; call once the reader streams, since nothing passes the watermarks before. */
    public void start() throws SQLException {
        log.info(
                "pglane source {}: snapshot {} of {} tables, {} rows per chunk, {} threads",
                settings.connectorName(),
                progress.snapshotId(),
                tables.size(),
                settings.chunkRows(),
                settings.threads());
        for (int i = 0; i < settings.threads(); i++) {
            Properties options = new Properties();
            PGProperty.OPTIONS.set(options, SessionSettings.OPTIONS);
            Connection connection =
                    settings.endpoint().connect("pglane-" + settings.connectorName() + "-snapshot-" + i, options);
            connections.add(connection);
            ChunkReader reader = new ChunkReader(connection, settings.seal(), settings.keylessMaxBytes());
            Thread thread = new Thread(() -> work(reader), "pglane-" + settings.connectorName() + "-snapshot-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    /** The snapshot's progress as of the last chunk the reader sent. Reader thread. */
    public synchronized SnapshotProgress progress() {
        return progress;
    }

    /** Where the snapshot stands; any thread. */
    public synchronized Standing standing() {
        int done = (int) tables.stream().filter(TableChunks::done).count();
        long estimated =
                tables.stream().mapToLong(t -> t.table().estimatedRows()).sum();
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        double left = rowsSent == 0 ? -1 : Math.max(0, estimated - rowsSent) / (rowsSent / seconds);
        return new Standing(tables.size(), done, chunksSent, rowsSent, estimated, left, hold.heldMillis());
    }

    /** True while the table's snapshot has not been sent in full: its changes may reach rows a target lacks. */
    public boolean pending(int relationId) {
        return pending.contains(relationId);
    }

    SnapshotTable table(int relationId) {
        return byOid.get(relationId);
    }

    /** The read a watermark of this run belongs to, or {@code null}. */
    ChunkRead read(long serial) {
        return reads.get(serial);
    }

    /** Takes the read a high watermark ends. */
    ChunkRead end(long serial) {
        return reads.remove(serial);
    }

    /**
     * The reader thread sent {@code read}'s chunk with {@code rows} rows.
     *
     * @return what its END says about the snapshot
     */
    synchronized SnapshotChunk sent(ChunkRead read, int rows) {
        Chunk chunk = read.chunk;
        TableChunks table = byName.get(chunk.table().name());
        table.sent(chunk);
        TableStats counted = stats.get(chunk.table().name());
        counted.rows += rows;
        counted.chunks++;
        rowsSent += rows;
        chunksSent++;
        chunksOut--;
        boolean tableDone = table.done();
        progress = progress.with(chunk.table().name(), table.resumeBound(), table.sentAhead(), tableDone);
        if (tableDone) {
            pending.remove(chunk.table().oid());
            double seconds = (System.nanoTime() - counted.startNanos) / 1e9;
            log.info(
                    "pglane source {}: snapshot {} sent table {}: {} rows in {} chunks, {} s ({} rows/s)",
                    settings.connectorName(),
                    progress.snapshotId(),
                    chunk.table().name(),
                    counted.rows,
                    counted.chunks,
                    String.format("%.1f", seconds),
                    Math.round(counted.rows / Math.max(seconds, 1e-3)));
        }
        if (progress.complete()) {
            log.info(
                    "pglane source {}: snapshot {} sent every table; new chunks waited {} s in all for the pace",
                    settings.connectorName(),
                    progress.snapshotId(),
                    String.format("%.1f", hold.heldMillis() / 1e3));
        }
        read.decide(true);
        notifyAll();
        return new SnapshotChunk(
                progress.snapshotId(),
                chunk.table().name(),
                chunk.index(),
                tableDone,
                progress.complete(),
                range(chunk),
                chunk.tableStart());
    }

    /**
     * What the chunk covers on the target: its key range, so that the target's rows in it that the chunk lacks are
     * deleted; none for a chunk of a condition, whose range holds rows the condition did not send.
     */
    private static SnapshotChunk.KeyRange range(Chunk chunk) {
        if (chunk.where() != null) {
            return null;
        }
        List<String> columns = chunk.table().chunkKey().stream()
                .map(SnapshotTable.KeyColumn::name)
                .toList();
        return new SnapshotChunk.KeyRange(columns, values(chunk.lower()), values(chunk.upper()));
    }

    private static List<String> values(ChunkBound bound) {
        return bound == null ? null : ((ChunkBound.Key) bound).values();
    }

    /** The chunk cannot go out as read; it is read again, up to {@link #MAX_ATTEMPTS} times. */
    synchronized void retry(ChunkRead read, String reason) {
        Chunk chunk = read.chunk;
        int attempt = attempts.merge(chunk.table().name() + "#" + chunk.index(), 1, Integer::sum);
        if (attempt >= MAX_ATTEMPTS) {
            failures.fail(new ConnectException("The snapshot's " + chunk.describe() + " could not be read consistently"
                    + " in " + attempt + " attempts; the last time because " + reason));
        } else {
            log.info("The snapshot's {} is read again: {}", chunk.describe(), reason);
            again.add(chunk);
        }
        chunksOut--;
        read.decide(false);
        notifyAll();
    }

    private void work(ChunkReader reader) {
        try {
            // Each thread has up to two chunks out: it reads the next while the stream carries the last one to its
            // high watermark, and waits for the one before that, so a thread holds at most two chunks' rows.
            ChunkRead previous = null;
            Chunk chunk;
            while ((chunk = next(reader)) != null) {
                started();
                ChunkRead read = new ChunkRead(chunk, settings.serials().incrementAndGet());
                reads.put(read.serial, read);
                reader.read(
                        read,
                        new Watermark(settings.seal().connector(), settings.generation(), read.serial, false),
                        new Watermark(settings.seal().connector(), settings.generation(), read.serial, true));
                awaitDecision(previous);
                previous = read;
            }
            awaitDecision(previous);
        } catch (InterruptedException e) {
            // The session is closing.
        } catch (SQLException e) {
            if (!stopping) {
                String what = "The snapshot lost its connection to the source: " + e.getMessage();
                failures.fail(
                        ConnectionLoss.isLost(e)
                                ? new RetriableException(what, e)
                                : new ConnectException("The snapshot failed: " + e.getMessage(), e));
            }
        } catch (Throwable e) { // a thread that died quietly would leave the snapshot unfinished for good
            if (!stopping) {
                failures.fail(new ConnectException("A snapshot thread failed: " + e, e));
            }
        }
    }

    private synchronized void started() {
        chunksOut++;
    }

    /** Waits until the reader has passed {@code read}'s high watermark (sent it or handed it back), if any. */
    private void awaitDecision(ChunkRead read) throws InterruptedException {
        while (read != null && !stopping && read.awaitDecision(100, TimeUnit.MILLISECONDS) == null) {
            // The reader has not passed the high watermark yet: the stream is behind.
        }
    }

    /** The next chunk to read, waiting while no chunk can be cut and some are still out; {@code null} when done. */
    private Chunk next(ChunkReader reader) throws SQLException, InterruptedException {
        while (true) {
            Claim claim = claim();
            if (claim == null || claim.again() != null) {
                return claim == null ? null : claim.again();
            }
            TableChunks table = claim.cut();
            ChunkBound upper;
            try {
                upper = table.nextUpper(reader.sql(), reader.connection());
            } catch (SQLException e) {
                if (table.filtered() && TableChunks.refusesFilter(e)) {
                    abandon(table, e);
                    continue;
                }
                abandonCut(table);
                throw e;
            } catch (RuntimeException e) {
                abandonCut(table);
                throw e;
            }
            synchronized (this) {
                notifyAll();
                return table.cut(upper);
            }
        }
    }

    private synchronized void abandonCut(TableChunks table) {
        table.abandonCut();
    }

    /**
     * A signal's filter of {@code table} that the server refused: the table's rows are not sent. The WARN gives the
     * SQLSTATE, not the server's message, which may quote values.
     */
    private synchronized void abandon(TableChunks table, SQLException refusal) {
        log.warn(
                "Snapshot {}: the rest of table {} is not sent: the source refused the signal's filter (SQLSTATE {}:"
                        + " a key value or a literal that is not of its column's type, or a comparison the column's"
                        + " type does not have)",
                progress.snapshotId(),
                table.table().name(),
                refusal.getSQLState());
        table.abandon();
        if (table.done()) {
            progress = progress.with(table.table().name(), null, true);
            pending.remove(table.table().oid());
        }
        notifyAll();
    }

    /** A chunk to read again, or a table this thread may cut the next chunk of. */
    private record Claim(Chunk again, TableChunks cut) {}

    /** The next claim, waiting while there is none; {@code null} when everything is sent or the session stops. */
    private synchronized Claim claim() throws InterruptedException {
        while (!stopping) {
            if (paused) {
                wait(100);
                continue;
            }
            if (hold.holds(progress.snapshotId(), (long) chunksOut * settings.chunkRows())) {
                wait(100);
                continue;
            }
            Chunk chunk = again.poll();
            if (chunk != null) {
                return new Claim(chunk, null);
            }
            for (TableChunks table : tables) {
                if (table.cuttable()) {
                    stats.computeIfAbsent(table.table().name(), t -> new TableStats());
                    table.startCutting();
                    return new Claim(null, table);
                }
            }
            if (tables.stream().allMatch(TableChunks::done)) {
                return null;
            }
            wait(100);
        }
        return null;
    }

    /** Stops the threads and drops their connections. */
    @Override
    public void close() {
        stopping = true;
        threads.forEach(Thread::interrupt);
        for (Connection connection : connections) {
            try {
                connection.abort(Runnable::run);
            } catch (SQLException ignored) {
                // Nothing more to release.
            }
        }
    }
}
