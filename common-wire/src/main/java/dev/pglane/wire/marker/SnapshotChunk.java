package dev.pglane.wire.marker;

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
 */
public record SnapshotChunk(String snapshotId, String table, long chunk, boolean tableDone, boolean snapshotDone) {
    public SnapshotChunk {
        Objects.requireNonNull(snapshotId, "snapshotId");
        Objects.requireNonNull(table, "table");
        if (chunk < 0) {
            throw new IllegalArgumentException("chunk must not be negative: " + chunk);
        }
        if (snapshotDone && !tableDone) {
            throw new IllegalArgumentException("a snapshot cannot be done while its table " + table + " is not");
        }
    }
}
