package dev.pglane.source.offset;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.wire.RowKey;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/** How a failure names a record that has no envelope to read. */
class RecordDescriptionTest {

    @Test
    void aTombstoneIsNamedWithTheXidOfItsHeader() {
        ConnectHeaders headers = new ConnectHeaders();
        headers.addLong(RowKey.XID_HEADER, 500L);
        SourceRecord tombstone = new SourceRecord(
                Map.of(), Map.of(), "shop.public.orders", null, Schema.INT32_SCHEMA, 7, null, null, 0L, headers);
        assertEquals("a tombstone of xid 500 (topic shop.public.orders)", RecordDescription.of(tombstone));
    }

    @Test
    void aValueThatIsNotAStructIsARecordOfItsTopic() {
        SourceRecord odd = new SourceRecord(Map.of(), Map.of(), "t", Schema.STRING_SCHEMA, "x");
        assertEquals("a record (topic t)", RecordDescription.of(odd));
    }
}
