package dev.pglane.source.snapshot;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * One table's chunks: cuts the next one when a thread asks (the key {@code rows} rows on, an index scan) and knows
 * which are out, so that the table's progress is the start of the first chunk still out. A table without a key is
 * one chunk (see {@link ChunkWindow}). Guarded by the {@link SnapshotRunner}'s lock.
 */
final class TableChunks {
    private final SnapshotTable table;
    private final long chunkRows;
    /** Where the next chunk starts; {@code null} at the table's start. */
    private ChunkBound next;

    private boolean allCut;
    /** A thread is finding where the next chunk ends, outside the runner's lock. */
    private boolean cutting;

    private long nextIndex;
    private final TreeMap<Long, Chunk> out = new TreeMap<>();

    TableChunks(SnapshotTable table, ChunkBound resumeAt, long chunkRows) {
        this.table = table;
        this.next = resumeAt;
        this.chunkRows = chunkRows;
    }

    SnapshotTable table() {
        return table;
    }

    boolean allCut() {
        return allCut;
    }

    /** True if another chunk can be cut now: not all are, and no thread is cutting one. */
    boolean cuttable() {
        return !allCut && !cutting;
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

    /** Cuts the next chunk at {@code upper} and ends the claim; under the runner's lock. */
    Chunk cut(ChunkBound upper) {
        cutting = false;
        Chunk chunk = new Chunk(table, nextIndex++, next, upper);
        out.put(chunk.index(), chunk);
        next = upper;
        allCut = upper == null;
        return chunk;
    }

    /** Ends a claim that failed. */
    void abandonCut() {
        cutting = false;
    }

    /** The chunk was sent; the table then continues from the start of the first chunk still out. */
    void sent(Chunk chunk) {
        out.remove(chunk.index());
    }

    /** Where a restart would continue: the first chunk still out, else the next to cut ({@code null}: done). */
    ChunkBound resumeBound() {
        return out.isEmpty() ? next : out.firstEntry().getValue().lower();
    }

    List<Chunk> outstanding() {
        return new ArrayList<>(out.values());
    }

    private ChunkBound nextKey(ChunkSql sql, java.sql.Connection connection) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(sql.nextKey(table, (ChunkBound.Key) next, chunkRows))) {
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
