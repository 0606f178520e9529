package dev.pglane.local.kafka;

/** One copy of a transaction: the records one source task run (generation) emitted for one xid. */
record CopyId(long xid, long generation) {
    @Override
    public String toString() {
        return "(xid " + xid + ", generation " + generation + ")";
    }
}
