package dev.pglane.wire.debezium;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.WireFormatException;
import dev.pglane.wire.Xid;

/**
 * Debezium PostgreSQL's transaction id, {@code "<xid>:<lsn>"}: the xid is the same on every record and marker of the
 * transaction; the LSN is that of the last message Debezium read before writing it, so it differs from record to
 * record and, on END, is the end of the commit record.
 */
record DebeziumTransactionId(long xid, Lsn lsn) {

    static DebeziumTransactionId parse(String id, String context) {
        int colon = id == null ? -1 : id.indexOf(':');
        if (colon <= 0 || colon == id.length() - 1) {
            throw WireFormatException.forField(
                    context, "id", id, "must be Debezium PostgreSQL's \"<xid>:<lsn>\" (both decimal)");
        }
        try {
            long xid = Long.parseLong(id.substring(0, colon));
            long lsn = Long.parseUnsignedLong(id.substring(colon + 1));
            Xid.checkRange(xid);
            return new DebeziumTransactionId(xid, Lsn.valueOf(lsn));
        } catch (IllegalArgumentException e) {
            throw WireFormatException.forField(
                    context,
                    "id",
                    id,
                    "must be Debezium PostgreSQL's \"<xid>:<lsn>\" (both decimal): " + e.getMessage());
        }
    }
}
