package dev.pglane.sink.assemble;

import dev.pglane.wire.Xid;

/** One copy of a source transaction: its records emitted by the source run {@code generation}. */
record CopyKey(long xid, long generation) {

    @Override
    public String toString() {
        return "xid " + Xid.format(xid) + " generation " + generation;
    }
}
