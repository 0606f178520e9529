package dev.pglane.source.schema;

import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TypeMessage;
import java.util.HashMap;
import java.util.Map;

/**
 * The current descriptor of each relation, as the reader thread has seen Relation messages; not thread-safe.
 *
 * <p>pgoutput tracks "schema sent" separately for each streamed transaction: inside a stream it sends a relation
 * once per top-level transaction, whatever the main flow has seen, and the schema may be one that only that
 * uncommitted transaction has. So Relation messages read inside a stream go to an overlay of that stream's
 * top-level xid, and lookups inside the stream try the overlay first. When the stream commits, pgoutput counts
 * its relations as sent for the main flow too (PostgreSQL's own subscriber applies them at that point), so the
 * overlay is merged into the main map; when it aborts, the overlay is dropped.
 *
 * <p>Note the xid: a Relation message inside a stream carries the xid of the (sub)transaction whose change made
 * it necessary, which may be a subtransaction, while pgoutput's bookkeeping uses the top-level xid. The reader
 * therefore hands over the message with the xid of the Stream Start it is in.
 */
public final class RelationCache {

    private final RelationDescriptorFactory factory;
    private final Map<Integer, RelationDescriptor> main = new HashMap<>();
    private final Map<Long, Map<Integer, RelationDescriptor>> overlays = new HashMap<>();

    public RelationCache(RelationDescriptorFactory factory) {
        this.factory = factory;
    }

    /**
     * Describes the relation and keeps the descriptor: in the main map if the message's xid is 0, else in the
     * overlay of that xid, which must be the top-level xid of the stream being read (see above).
     *
     * @return the new descriptor
     */
    public RelationDescriptor apply(RelationMessage message) {
        RelationDescriptor descriptor = factory.create(message);
        long streamXid = message.xid();
        Map<Integer, RelationDescriptor> target =
                streamXid == 0 ? main : overlays.computeIfAbsent(streamXid, xid -> new HashMap<>());
        target.put(descriptor.relationId(), descriptor);
        return descriptor;
    }

    /**
     * The descriptor of rows read outside the stream (a snapshot chunk) whose columns {@code message} gives: the
     * current one when it has the same columns, so the rows share the stream's schema, else a new one that is not
     * kept (the stream's own Relation message decides what its changes use).
     */
    public RelationDescriptor describe(RelationMessage message) {
        RelationDescriptor created = factory.create(message);
        RelationDescriptor current = main.get(created.relationId());
        return current != null && current.columns().equals(created.columns()) ? current : created;
    }

    /** A Type message: the catalog forgets what it cached about the type before the Relation that uses it. */
    public void apply(TypeMessage message) {
        factory.announced(message);
    }

    /**
     * @param streamXid the top-level xid of the stream being read, or 0 outside streams
     * @throws IllegalStateException naming the relation id if no Relation message described it
     */
    public RelationDescriptor get(int relationId, long streamXid) {
        Map<Integer, RelationDescriptor> overlay = streamXid == 0 ? null : overlays.get(streamXid);
        RelationDescriptor descriptor = overlay == null ? null : overlay.get(relationId);
        if (descriptor == null) {
            descriptor = main.get(relationId);
        }
        if (descriptor == null) {
            throw new IllegalStateException("no Relation message described relation id " + relationId
                    + (streamXid == 0 ? "" : " (in the stream of xid " + streamXid + ")")
                    + " before a change referred to it");
        }
        return descriptor;
    }

    /** Stream Commit of top-level {@code xid}: its relations become the main flow's. */
    public void commitStream(long xid) {
        Map<Integer, RelationDescriptor> overlay = overlays.remove(xid);
        if (overlay != null) {
            main.putAll(overlay);
        }
    }

    /**
     * Stream Abort of top-level {@code xid} (not of a subtransaction: a subtransaction's abort leaves the
     * relations it sent valid for the rest of the transaction, as pgoutput does not send them again).
     */
    public void abortStream(long xid) {
        overlays.remove(xid);
    }
}
