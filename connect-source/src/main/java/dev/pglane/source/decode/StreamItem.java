package dev.pglane.source.decode;

import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.source.schema.RelationDescriptor;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.TruncateInfo;
import dev.pglane.wire.marker.Marker;

/**
 * One future record, as the reader hands it to a decoder lane: everything order-dependent is already
 * decided (stamps, offset, marker counts), and what remains is CPU work a lane can do on its own.
 * Items are immutable; a change carries the relation descriptor in force when it was read, so a later
 * Relation message cannot change how it decodes.
 */
public sealed interface StreamItem {

    /** The Connect source offset of the record, as the reader computed it. */
    SourceOffset offset();

    /**
     * An insert, update or delete; tuples stay raw until the lane decodes them.
     *
     * @param oldTuple the old key ({@code 'K'}) or old row ({@code 'O'}), or {@code null}
     * @param newTuple the new row, {@code null} for a delete
     * @param pendingSnapshot the table's snapshot has rows still to send (the envelope's {@code pending_snapshot})
     */
    record Change(
            RelationDescriptor relation,
            Op op,
            TupleData oldTuple,
            TupleData newTuple,
            boolean pendingSnapshot,
            ChangeStamp stamp,
            SourceOffset offset)
            implements StreamItem {}

    /** The truncation of one table (pgoutput sends one message for all tables of the statement). */
    record Truncate(RelationDescriptor relation, TruncateInfo options, ChangeStamp stamp, SourceOffset offset)
            implements StreamItem {}

    /** A logical decoding message; its stamp has xid 0 when it is not transactional. */
    record Message(LogicalMessage message, ChangeStamp stamp, SourceOffset offset) implements StreamItem {}

    /** A marker, built whole by the reader. */
    record MarkerItem(Marker marker, SourceOffset offset) implements StreamItem {}
}
