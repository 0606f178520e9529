package dev.pglane.source.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.source.offset.TrackedRecord;
import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TestTuples;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.source.schema.RelationDescriptor;
import dev.pglane.source.schema.RelationDescriptorFactory;
import dev.pglane.source.schema.RowKeyColumns;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TruncateInfo;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.MarkerCodec;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.ValueMappings;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

class RecordFactoryTest {
    private static final TopicNames TOPICS = TopicNames.perTable("shop");
    private static final EnvelopeSchemas ENVELOPES = new EnvelopeSchemas();
    private static final long COMMIT_US = 1_700_000_000_123_456L;
    private static final Timestamps PROCESSED = Timestamps.ofMicros(1_700_000_001_000_000L);
    /** The END of xid 500, with one change of public.orders. */
    private static final Marker.End END = new Marker.End(
            3,
            500,
            Lsn.valueOf(0x400),
            Lsn.valueOf(0x410),
            COMMIT_US,
            1,
            List.of(new DataCollectionCount("public.orders", 1, "shop.public.orders")));

    private final RecordFactory factory = factory(PayloadFormat.CONNECT);
    private final RelationDescriptor orders = new RelationDescriptorFactory(
                    "shop", TOPICS, ValueMappings.DEFAULT, ENVELOPES, PgColumnType::of, RowKeyColumns.NONE)
            .create(new RelationMessage(
                    0,
                    16_001,
                    "public",
                    "orders",
                    'd',
                    List.of(new RelationColumn("id", 23, -1, true), new RelationColumn("note", 25, -1, false))));

    private static RecordFactory factory(PayloadFormat format) {
        return new RecordFactory(
                "9.9.9",
                "inventory",
                TOPICS,
                ENVELOPES,
                RecordEncoding.of(format, Map.of()),
                RecordKeys.BY_TRANSACTION);
    }

    /** The one record {@code item} makes. */
    private static TrackedRecord only(RecordFactory factory, StreamItem item, Timestamps processed) {
        List<TrackedRecord> records = factory.toRecords(item, processed);
        assertEquals(1, records.size(), records::toString);
        return records.get(0);
    }

    private static TupleData tuple(String... values) {
        return TestTuples.of(values);
    }

    private static ChangeStamp stamp(long ordinal) {
        return new ChangeStamp(500, null, ordinal, ordinal, Lsn.valueOf(0x100), COMMIT_US, Lsn.valueOf(0x80), 3);
    }

    private StreamItem.Change change(Op op, TupleData old, TupleData now) {
        ChangeStamp stamp = stamp(1);
        return new StreamItem.Change(
                orders,
                op,
                old,
                now,
                false,
                stamp,
                new SourceOffset(Lsn.valueOf(0x90), 3, 500L, 1L, Lsn.valueOf(0x100)));
    }

    @Test
    void insertBecomesAnEnvelopeKeyedByXidWithItsSourceBlockAndOffset() throws IOException {
        TrackedRecord record = only(factory, change(Op.CREATE, null, tuple("7", "hello")), PROCESSED);

        assertEquals("shop.public.orders", record.topic());
        assertEquals(500L, TransactionKey.xid(record.key()));
        assertEquals(SourceOffset.partition("shop"), record.sourcePartition());
        assertEquals(
                new SourceOffset(Lsn.valueOf(0x90), 3, 500L, 1L, Lsn.valueOf(0x100)).toMap(), record.sourceOffset());
        assertEquals(COMMIT_US / 1000, record.timestamp());
        assertNull(record.confirmLsn());

        ChangeEvent event = ChangeEnvelope.fromStruct(record.value());
        assertEquals(Op.CREATE, event.op());
        assertEquals(7, event.after().get("id"));
        assertEquals("hello", event.after().get("note"));
        assertEquals("9.9.9", event.source().version());
        assertEquals("shop", event.source().name());
        assertEquals("inventory", event.source().db());
        assertEquals("orders", event.source().table());
        assertEquals(500, event.source().txId());
        assertEquals(Lsn.valueOf(0x100), event.source().lsn());
        assertEquals(Timestamps.ofMicros(COMMIT_US), event.source().time());
        assertEquals("[\"128\",\"256\"]", event.source().sequence());
        assertEquals(PROCESSED, event.processingTime());
        assertEquals(stamp(1).transaction(), event.transaction());
    }

    @Test
    void updateKeepsTheOldKeyAndListsUnchangedToast() throws IOException {
        TrackedRecord record = only(factory, change(Op.UPDATE, tuple("6", null), tuple("7", "\u0000u")), PROCESSED);
        ChangeEvent event = ChangeEnvelope.fromStruct(record.value());
        assertEquals(6, event.before().get("id"));
        assertEquals(7, event.after().get("id"));
        assertNull(event.after().get("note"));
        assertEquals(List.of("note"), event.unchangedToast());
    }

    @Test
    void truncateAndMessagesUseTheirOwnBlocks() {
        TrackedRecord truncate = only(
                factory,
                new StreamItem.Truncate(
                        orders, new TruncateInfo(true, false), stamp(2), SourceOffset.between(Lsn.INVALID, 3)),
                PROCESSED);
        assertEquals(
                new TruncateInfo(true, false),
                ChangeEnvelope.fromStruct(truncate.value()).truncate());

        ChangeStamp outside = new ChangeStamp(0, null, 0, 0, Lsn.valueOf(0x200), COMMIT_US, null, 3);
        LogicalMessage content = new LogicalMessage("app", new byte[] {1, 2}, false);
        TrackedRecord message = only(
                factory, new StreamItem.Message(content, outside, SourceOffset.between(Lsn.INVALID, 3)), PROCESSED);
        assertEquals("shop.messages", message.topic());
        assertEquals(0L, TransactionKey.xid(message.key()));
        ChangeEvent event = ChangeEnvelope.fromStruct(message.value());
        assertEquals(content, event.message());
        assertNull(event.transaction());
        assertEquals("", event.source().table());
    }

    @Test
    void endAndHeartbeatRecordsCarryTheLsnTheirAcknowledgementConfirms() {
        Marker.End end = END;
        TrackedRecord record =
                only(factory, new StreamItem.MarkerItem(end, SourceOffset.between(Lsn.valueOf(0x410), 3)), PROCESSED);
        assertEquals("shop.transactions", record.topic());
        assertEquals(500L, TransactionKey.xid(record.key()));
        assertEquals(end, MarkerCodec.fromStruct(record.value()));
        assertEquals(Lsn.valueOf(0x410), record.confirmLsn());
        assertEquals(end.tsMs(), record.timestamp());

        Marker.Heartbeat heartbeat = new Marker.Heartbeat(3, 5, Lsn.valueOf(0x900));
        TrackedRecord beat = only(
                factory, new StreamItem.MarkerItem(heartbeat, SourceOffset.between(Lsn.valueOf(0x900), 3)), PROCESSED);
        assertEquals(0L, TransactionKey.xid(beat.key()));
        assertEquals(Lsn.valueOf(0x900), beat.confirmLsn());

        Marker.Start start = new Marker.Start(3, 5, Lsn.valueOf(0x90));
        assertNull(only(
                        factory,
                        new StreamItem.MarkerItem(start, SourceOffset.between(Lsn.valueOf(0x90), 3)),
                        PROCESSED)
                .confirmLsn());
    }

    /**
     * With payload.format=json the lanes write what the worker's JsonConverter would have written of the same record,
     * byte for byte (Kafka's own converter is the reference here), and nothing else about the record changes.
     */
    @Test
    void withPayloadFormatJsonKeyAndValueAreTheBytesKafkasJsonConverterWrites() {
        JsonConverter kafkaKeys = new JsonConverter();
        kafkaKeys.configure(Map.of("schemas.enable", "true"), true);
        JsonConverter kafkaValues = new JsonConverter();
        kafkaValues.configure(Map.of("schemas.enable", "true"), false);
        RecordFactory json = factory(PayloadFormat.JSON);
        Marker.End end = END;
        List<StreamItem> items = List.of(
                change(Op.CREATE, null, tuple("7", "hello")),
                change(Op.UPDATE, tuple("7", null), tuple("8", "bye")),
                new StreamItem.Truncate(
                        orders, new TruncateInfo(true, false), stamp(2), SourceOffset.between(Lsn.INVALID, 3)),
                new StreamItem.MarkerItem(end, SourceOffset.between(Lsn.valueOf(0x410), 3)));
        for (StreamItem item : items) {
            TrackedRecord asData = only(factory, item, PROCESSED);
            TrackedRecord asBytes = only(json, item, PROCESSED);
            assertEquals(Schema.OPTIONAL_BYTES_SCHEMA, asBytes.keySchema());
            assertEquals(Schema.OPTIONAL_BYTES_SCHEMA, asBytes.valueSchema());
            assertArrayEquals(
                    kafkaKeys.fromConnectData(asData.topic(), asData.keySchema(), asData.key()),
                    (byte[]) asBytes.key(),
                    item.toString());
            assertArrayEquals(
                    kafkaValues.fromConnectData(asData.topic(), asData.valueSchema(), asData.value()),
                    (byte[]) asBytes.value(),
                    item.toString());
            assertEquals(asData.topic(), asBytes.topic());
            assertEquals(asData.sourceOffset(), asBytes.sourceOffset());
            assertEquals(asData.sourcePartition(), asBytes.sourcePartition());
            assertEquals(asData.timestamp(), asBytes.timestamp());
            assertEquals(asData.confirmLsn(), asBytes.confirmLsn());
        }
        assertEquals(Lsn.valueOf(0x410), only(json, items.get(3), PROCESSED).confirmLsn());
    }

    @Test
    void aValueThatCannotBeDecodedNamesTableColumnXidAndLsn() throws IOException {
        StreamItem.Change bad = change(Op.CREATE, null, tuple("seven", "x"));
        ConnectException e = assertThrows(ConnectException.class, () -> factory.decode(List.of(bad)));
        String message = e.getMessage();
        assertTrue(message.contains("public.orders"), message);
        assertTrue(message.contains("xid 500"), message);
        assertTrue(message.contains("LSN 0/100"), message);
        assertTrue(message.contains("id"), message);
    }
}
