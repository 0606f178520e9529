package dev.pglane.local.kafka;

import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.marker.Marker;
import java.util.List;

/**
 * One source transaction as a consumer following the discard rule rebuilds it: the copy that completed first, its
 * END marker and its records in stream order ({@code transaction.total_order}), those of aborted subtransactions
 * removed.
 */
public record CommittedTransaction(Marker.End end, List<ChangeEvent> changes) {
    public CommittedTransaction {
        changes = List.copyOf(changes);
    }

    public long xid() {
        return end.xid();
    }

    public long generation() {
        return end.generation();
    }
}
