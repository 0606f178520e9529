package dev.pglane.source.snapshot;

import dev.pglane.source.signal.RowCondition;
import dev.pglane.source.signal.SnapshotFilter;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.TreeMap;

/**
 * One table's chunks: cuts the next one when a thread asks (the key {@code rows} rows on, an index scan) and knows
 * which are out, so that the table's progress is the start of the first chunk still out. A table without a key is
 * one chunk (see {@link ChunkWindow}). A signal's filter ends the last chunk at its range's end and cuts among the
 * rows its condition admits. Guarded by the {@link SnapshotRunner}'s lock.
 */
final class TableChunks {
    private final SnapshotTable table;
    private final long chunkRows;
    /** Where the last chunk ends ({@code null}: at the table's end). */
    private final ChunkBound.Key end;

    private final RowCondition where;
    private final boolean filtered;
    /** Where the next chunk starts; {@code null} at the table's start. */
    private ChunkBound next;

    private boolean allCut;
    /** A thread is finding where the next chunk ends, outside the runner's lock. */
    private boolean cutting;

    private long nextIndex;
    /** The index of the chunk that opens a read of the whole table, once cut; see {@link #cuttable}. */
    private Long startOut;

    private final TreeMap<Long, Chunk> out = new TreeMap<>();
    /** Chunks this run sent while one cut before them was still out, and ranges it passed over, by index. */
    private final TreeMap<Long, SentRange> sentAhead = new TreeMap<>();
    /** Ranges an earlier run sent beyond where this one resumed, in key order: cut around, not read again. */
    private final Deque<SentRange> skip;

    /** @param filter the rows a signal asks for, or {@code null}: all */
    TableChunks(SnapshotTable table, ChunkBound resumeAt, long chunkRows, SnapshotFilter filter) {
        this(table, resumeAt, List.of(), chunkRows, filter);
    }

    /**
     * @param sent ranges an earlier run sent beyond {@code resumeAt}, in key order
     * @param filter the rows a signal asks for, or {@code null}: all
     */
    TableChunks(SnapshotTable table, ChunkBound resumeAt, List<SentRange> sent, long chunkRows, SnapshotFilter filter) {
        this.table = table;
        this.next = resumeAt;
        this.skip = new ArrayDeque<>(sent);
        this.chunkRows = chunkRows;
        this.end = filter == null || filter.to() == null ? null : new ChunkBound.Key(filter.to());
        this.where = filter == null ? null : filter.where();
        this.filtered = filter != null;
    }

    /** True if a signal's filter selects the rows to send. */
    boolean filtered() {
        return filtered;
    }

    /**
     * True if the server refused a filtered query for what the filter holds, not for a lost connection: a syntax,
     * name, privilege or data error (class 42 or 22, a key value of the wrong type among them), or a write in a
     * read-only transaction (25006).
     */
    static boolean refusesFilter(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("42") || state.startsWith("22") || state.equals("25006"));
    }

    SnapshotTable table() {
        return table;
    }

    boolean allCut() {
        return allCut;
    }

    /**
     * True if another chunk can be cut now: not all are, no thread is cutting one, and the chunk that opens a read of
     * the whole table is not out. That chunk goes out alone, so every other chunk of the table is read after the
     * stream passed it and follows it in commit order: a target may empty the table when it applies that chunk
     * ({@code snapshot.target.prepare}) without undoing a chunk applied before. It costs one chunk's time per table.
     */
    boolean cuttable() {
        return !allCut && !cutting && !(startOut != null && out.containsKey(startOut));
    }

    /** Claims the table for cutting its next chunk; the claimer then calls {@link #nextUpper} and {@link #cut}. */
    void startCutting() {
        cutting = true;
    }

    /** Every chunk has been cut and sent. */
    boolean done() {
        return allCut && out.isEmpty();
    }

    /**
     * Where the next chunk ends ({@code null}: at the table's end), found by the thread that claimed the cut, without
     * the runner's lock: the reader thread must not wait for this query.
     */
    ChunkBound nextUpper(ChunkSql sql, java.sql.Connection connection) throws SQLException {
        return table.keyed() ? nextKey(sql, connection) : null;
    }

    /**
     * Cuts the next chunk at {@code upper} ({@code null}: the last before the table's end, or before a range an
     * earlier run sent, which the table then continues after) and ends the claim; under the runner's lock.
     */
    Chunk cut(ChunkBound upper) {
        cutting = false;
        boolean tableStart = next == null && !filtered;
        ChunkBound.Key sentNext = skip.isEmpty() ? null : skip.peekFirst().lower();
        ChunkBound chunkUpper = upper != null ? upper : sentNext != null ? sentNext : end;
        Chunk chunk = new Chunk(table, nextIndex++, next, chunkUpper, where, tableStart);
        out.put(chunk.index(), chunk);
        if (tableStart) {
            startOut = chunk.index();
        }
        next = upper != null ? upper : sentNext;
        allCut = next == null;
        while (!allCut && !skip.isEmpty() && skip.peekFirst().lower().equals(next)) {
            // passed over as a chunk already sent, in the index order of the chunks around it, so that it stays in
            // sentAhead() until every chunk before it is sent
            SentRange passed = skip.removeFirst();
            sentAhead.put(nextIndex++, passed);
            next = passed.upper();
            allCut = next == null || next.equals(end);
        }
        return chunk;
    }

    /** Ends the table without cutting further: its filter cannot be read. */
    void abandon() {
        cutting = false;
        allCut = true;
    }

    /** Ends a claim that failed. */
    void abandonCut() {
        cutting = false;
    }

    /** The chunk was sent; the table then continues from the start of the first chunk still out. */
    void sent(Chunk chunk) {
        out.remove(chunk.index());
        if (out.isEmpty()) {
            sentAhead.clear();
            return;
        }
        if (chunk.index() > out.firstKey()) {
            sentAhead.put(chunk.index(), SentRange.of(chunk));
        }
        sentAhead.headMap(out.firstKey()).clear();
    }

    /** The ranges beyond {@link #resumeBound} that were sent, in key order: a restart cuts around them. */
    List<SentRange> sentAhead() {
        List<SentRange> sent = new ArrayList<>(sentAhead.values());
        sent.addAll(skip);
        return sent;
    }

    /** Where a restart would continue: the first chunk still out, else the next to cut ({@code null}: done). */
    ChunkBound resumeBound() {
        return out.isEmpty() ? next : out.firstEntry().getValue().lower();
    }

    List<Chunk> outstanding() {
        return new ArrayList<>(out.values());
    }

    private ChunkBound nextKey(ChunkSql sql, java.sql.Connection connection) throws SQLException {
        ChunkBound.Key limit = skip.isEmpty() ? end : skip.peekFirst().lower();
        String query = sql.nextKey(table, (ChunkBound.Key) next, limit, where, chunkRows);
        if (where == null) {
            return nextKey(connection, query);
        }
        // pglane's own SQL from a parsed condition; read-only all the same, should the grammar ever admit too much
        connection.setAutoCommit(false);
        try {
            try (Statement st = connection.createStatement()) {
                st.execute("SET TRANSACTION READ ONLY");
            }
            ChunkBound upper = nextKey(connection, query);
            connection.commit();
            return upper;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private ChunkBound nextKey(java.sql.Connection connection, String query) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            if (!rs.next()) {
                return null;
            }
            List<String> values = new ArrayList<>();
            for (int i = 1; i <= table.chunkKey().size(); i++) {
                values.add(rs.getString(i));
            }
            return new ChunkBound.Key(values);
        }
    }
}
