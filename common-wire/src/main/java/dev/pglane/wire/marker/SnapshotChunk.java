package dev.pglane.wire.marker;

import java.util.List;
import java.util.Objects;

/**
 * What an END says about a snapshot transaction: the chunk of existing rows its {@code op = r} records hold. A
 * snapshot chunk is an ordinary transaction in commit order (its xid and LSNs are those of the transaction that
 * wrote the chunk's high watermark), so consumers apply and account for it like any other; this block tells them
 * where the snapshot stands.
 *
 * @param snapshotId the snapshot run the chunk belongs to, the same for all its chunks
 * @param table the chunk's table, {@code schema.table} as in {@code data_collections}
 * @param chunk the chunk's number within its table, from 0 in key order
 * @param tableDone every chunk of {@code table} has been sent: once this transaction is applied, the table's
 *     existing rows all are
 * @param snapshotDone every chunk of every table of the snapshot has been sent
 * @param range the key range the chunk covers: at this point of the stream the table holds exactly the chunk's rows
 *     in it, so a consumer deletes the rows it has in the range that the chunk does not hold; {@code null} from
 *     sources that did not send it (then nothing is deleted)
 * @param tableStart the chunk opens a read of the whole table: it starts at the table's start, the snapshot takes
 *     every row (no filter), and no other chunk of the table was read before the stream passed this one, so every
 *     later chunk of the table follows it in commit order and covers the rest. A consumer may empty its table before
 *     applying it. False from sources that did not send it.
 */
public record SnapshotChunk(
        String snapshotId,
        String table,
        long chunk,
        boolean tableDone,
        boolean snapshotDone,
        KeyRange range,
        boolean tableStart) {

    /**
     * A range of a table's key.
     *
     * @param columns the key's columns, in key order; empty for a table without a key, whose one chunk covers it whole
     * @param lower the first key of the range (inclusive), each value as PostgreSQL prints it; {@code null}: from
     *     the table's start
     * @param upper the first key after the range (exclusive); {@code null}: to the table's end
     */
    public record KeyRange(List<String> columns, List<String> lower, List<String> upper) {
        public KeyRange {
            columns = List.copyOf(columns);
            lower = lower == null ? null : List.copyOf(lower);
            upper = upper == null ? null : List.copyOf(upper);
            for (List<String> bound : java.util.Arrays.asList(lower, upper)) {
                if (bound != null && bound.size() != columns.size()) {
                    throw new IllegalArgumentException(
                            "a bound of " + bound.size() + " values for a key of " + columns.size() + " columns");
                }
            }
        }

        /** The whole of a table. */
        public static KeyRange whole(List<String> columns) {
            return new KeyRange(columns, null, null);
        }
    }

    /** A chunk of a source that did not send its range. */
    public SnapshotChunk(String snapshotId, String table, long chunk, boolean tableDone, boolean snapshotDone) {
        this(snapshotId, table, chunk, tableDone, snapshotDone, null, false);
    }

    /** A chunk that does not open a read of its whole table. */
    public SnapshotChunk(
            String snapshotId, String table, long chunk, boolean tableDone, boolean snapshotDone, KeyRange range) {
        this(snapshotId, table, chunk, tableDone, snapshotDone, range, false);
    }

    public SnapshotChunk {
        Objects.requireNonNull(snapshotId, "snapshotId");
        Objects.requireNonNull(table, "table");
        if (chunk < 0) {
            throw new IllegalArgumentException("chunk must not be negative: " + chunk);
        }
        if (tableStart && (range == null || range.lower() != null)) {
            throw new IllegalArgumentException("chunk " + chunk + " of " + table
                    + " cannot open a read of the whole table without a range from the table's start");
        }
        if (snapshotDone && !tableDone) {
            throw new IllegalArgumentException("a snapshot cannot be done while its table " + table + " is not");
        }
    }
}
