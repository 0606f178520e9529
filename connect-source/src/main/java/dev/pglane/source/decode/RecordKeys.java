package dev.pglane.source.decode;

import dev.pglane.source.RecordKey;

/**
 * How change records are keyed ({@code record.key}), and whether a delete keyed by row is followed by a tombstone
 * ({@code tombstones.on.delete}).
 */
public record RecordKeys(RecordKey mode, boolean tombstonesOnDelete) {

    /** pglane's default: every record keyed by its xid, no tombstones. */
    public static final RecordKeys BY_TRANSACTION = new RecordKeys(RecordKey.TRANSACTION, false);

    public RecordKeys {
        if (tombstonesOnDelete && mode != RecordKey.ROW) {
            throw new IllegalArgumentException("tombstones need records keyed by row");
        }
    }

    boolean byRow() {
        return mode == RecordKey.ROW;
    }
}
