package dev.pglane.sink.assemble;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.Xid;
import java.util.Set;

/**
 * The next transaction in commit order while it has its END but not all its records
 * ({@link TransactionAssembler#waitingHead()}).
 *
 * @param xid its xid
 * @param generation the source run whose copy it is
 * @param endLsn its END's end LSN
 * @param missingTopics the topics whose records it still lacks
 */
public record WaitingHead(long xid, long generation, Lsn endLsn, Set<String> missingTopics) {
    public WaitingHead {
        missingTopics = Set.copyOf(missingTopics);
    }

    /** {@code xid 571 (end LSN 0/16B3748)}. */
    public String describe() {
        return "xid " + Xid.format(xid) + " (end LSN " + endLsn + ")";
    }
}
