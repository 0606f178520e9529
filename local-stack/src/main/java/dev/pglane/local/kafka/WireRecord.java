package dev.pglane.local.kafka;

import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.marker.Marker;

/** One record read back from the topics of a pglane source, decoded with common-wire, with where it was read. */
public sealed interface WireRecord permits WireRecord.Change, WireRecord.MarkerRecord {
    String topic();

    int partition();

    long offset();

    /**
     * A change record (or logical decoding message) from a data topic.
     *
     * @param keyXid the xid of the record key
     */
    record Change(String topic, int partition, long offset, long keyXid, ChangeEvent event) implements WireRecord {}

    /** A record of the marker topic {@code <prefix>.transactions}. */
    record MarkerRecord(String topic, int partition, long offset, Marker marker) implements WireRecord {}
}
