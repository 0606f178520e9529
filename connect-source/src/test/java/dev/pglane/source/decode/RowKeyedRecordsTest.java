package dev.pglane.source.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.source.RecordKey;
import dev.pglane.source.offset.TrackedRecord;
import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TestTuples;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.source.schema.RelationDescriptor;
import dev.pglane.source.schema.RelationDescriptorFactory;
import dev.pglane.source.schema.RowKeyColumns;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.RowKey;
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
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.ValueMappings;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/** record.key=row: changes keyed by their row, the xid in a header, tombstones where a key is gone. */
class RowKeyedRecordsTest {
    private static final TopicNames TOPICS = TopicNames.perTable("shop");
    private static final EnvelopeSchemas ENVELOPES = new EnvelopeSchemas();
    private static final Timestamps PROCESSED = Timestamps.ofMicros(1_700_000_001_000_000L);
    private static final int ORDERS = 16_001;
    /** The catalog's primary keys: only orders has one, (id). */
    private static final RowKeyColumns KEYS =
            RowKeyColumns.replicaIdentity(oid -> oid == ORDERS ? List.of("id") : List.of());

    private final RecordFactory withTombstones = factory(PayloadFormat.CONNECT, true);
    private final RecordFactory withoutTombstones = factory(PayloadFormat.CONNECT, false);

    private static RecordFactory factory(PayloadFormat format, boolean tombstones) {
        return new RecordFactory(
                "9.9.9",
                "inventory",
                TOPICS,
                ENVELOPES,
                RecordEncoding.of(format, Map.of()),
                new RecordKeys(RecordKey.ROW, tombstones));
    }

    /** orders (id integer, note text), under the replica identity given; id is its primary key. */
    private static RelationDescriptor orders(char identity) {
        return relation(ORDERS, "orders", identity, identity != 'n');
    }

    private static RelationDescriptor relation(int oid, String table, char identity, boolean idFlagged) {
        return new RelationDescriptorFactory("shop", TOPICS, ValueMappings.DEFAULT, ENVELOPES, PgColumnType::of, KEYS)
                .create(new RelationMessage(
                        0,
                        oid,
                        "public",
                        table,
                        identity,
                        List.of(
                                new RelationColumn("id", 23, -1, idFlagged),
                                new RelationColumn("note", 25, -1, identity == 'f'))));
    }

    private static StreamItem.Change change(RelationDescriptor relation, Op op, TupleData old, TupleData now) {
        ChangeStamp stamp =
                new ChangeStamp(500, null, 1, 1, Lsn.valueOf(0x100), 1_700_000_000_123_456L, Lsn.valueOf(0x80), 3);
        return new StreamItem.Change(
                relation,
                op,
                old,
                now,
                false,
                stamp,
                new SourceOffset(Lsn.valueOf(0x90), 3, 500L, 1L, Lsn.valueOf(0x100)));
    }

    private static TupleData tuple(String... values) {
        return TestTuples.of(values);
    }

    private static int keyId(TrackedRecord record) {
        Struct key = (Struct) record.key();
        assertEquals("shop.public.orders.Key", key.schema().name());
        assertEquals(1, key.schema().fields().size(), "only the key columns");
        return key.getInt32("id");
    }

    private static long xidHeader(TrackedRecord record) {
        return RowKey.headerXid(record.headers());
    }

    @Test
    void aChangeIsKeyedByItsRowAndCarriesItsXidInAHeaderAndItsEnvelope() {
        TrackedRecord record = withTombstones
                .toRecords(change(orders('d'), Op.CREATE, null, tuple("7", "hello")), PROCESSED)
                .get(0);
        assertEquals(7, keyId(record));
        assertEquals(500L, xidHeader(record));
        assertEquals(
                500L, ChangeEnvelope.fromStruct(record.value()).transaction().xid());
        assertEquals("hello", ChangeEnvelope.fromStruct(record.value()).after().get("note"));
    }

    @Test
    void aDeleteIsFollowedByATombstoneOfItsKeyOnlyWhenAsked() {
        StreamItem.Change delete = change(orders('d'), Op.DELETE, tuple("7", null), null);
        List<TrackedRecord> records = withTombstones.toRecords(delete, PROCESSED);
        assertEquals(2, records.size());
        assertEquals(
                Op.DELETE, ChangeEnvelope.fromStruct(records.get(0).value()).op());
        TrackedRecord tombstone = records.get(1);
        assertEquals(7, keyId(tombstone));
        assertNull(tombstone.value());
        assertNull(tombstone.valueSchema());
        assertEquals(500L, xidHeader(tombstone));
        assertEquals(records.get(0).sourceOffset(), tombstone.sourceOffset());
        assertNull(tombstone.confirmLsn(), "a tombstone never moves the slot");

        assertEquals(1, withoutTombstones.toRecords(delete, PROCESSED).size());
    }

    /** As Debezium writes a key change: the old key's delete (outside the transaction's count), its tombstone. */
    @Test
    void anUpdateThatMovesTheRowToAnotherKeyIsPrecededByAKeyMovesDeleteOfTheOldKeyAndItsTombstone() {
        StreamItem.Change move = change(orders('d'), Op.UPDATE, tuple("6", null), tuple("7", "moved"));
        List<TrackedRecord> records = withTombstones.toRecords(move, PROCESSED);
        assertEquals(3, records.size());
        ChangeEvent delete = ChangeEnvelope.fromStruct(records.get(0).value());
        assertEquals(6, keyId(records.get(0)));
        assertEquals(Op.DELETE, delete.op());
        assertTrue(delete.isKeyMoveDelete());
        assertNull(delete.transaction(), "in no transaction's count");
        assertEquals(500L, delete.source().txId());
        assertEquals(500L, xidHeader(records.get(0)));
        assertEquals(6, keyId(records.get(1)));
        assertNull(records.get(1).value());
        assertEquals(7, keyId(records.get(2)));
        ChangeEvent update = ChangeEnvelope.fromStruct(records.get(2).value());
        assertEquals(Op.UPDATE, update.op());
        assertEquals(6, update.before().get("id"), "the update still carries the old key for pglane's sink");

        List<TrackedRecord> withoutTombstone = withoutTombstones.toRecords(move, PROCESSED);
        assertEquals(2, withoutTombstone.size());
        assertTrue(ChangeEnvelope.fromStruct(withoutTombstone.get(0).value()).isKeyMoveDelete());
    }

    @Test
    void anUpdateThatKeepsItsKeyIsOneRecordUnderEveryIdentity() {
        assertEquals(
                1,
                withTombstones
                        .toRecords(change(orders('d'), Op.UPDATE, null, tuple("7", "new")), PROCESSED)
                        .size());
        List<TrackedRecord> full = withTombstones.toRecords(
                change(orders('f'), Op.UPDATE, tuple("7", "old"), tuple("7", "new")), PROCESSED);
        assertEquals(1, full.size(), "the old row differs, its primary key does not");
        assertEquals(7, keyId(full.get(0)));
    }

    @Test
    void underFullOrNothingIdentityTheKeyIsThePrimaryKeyAndATableWithoutOneHasNoKey() {
        assertEquals(
                7,
                keyId(withTombstones
                        .toRecords(change(orders('f'), Op.DELETE, tuple("7", "x"), null), PROCESSED)
                        .get(0)));
        assertEquals(
                7,
                keyId(withTombstones
                        .toRecords(change(orders('n'), Op.CREATE, null, tuple("7", "x")), PROCESSED)
                        .get(0)));

        RelationDescriptor events = relation(16_002, "events", 'f', true);
        assertNull(events.keySchema());
        List<TrackedRecord> records =
                withTombstones.toRecords(change(events, Op.DELETE, tuple("1", "x"), null), PROCESSED);
        assertEquals(1, records.size(), "no tombstone without a key");
        assertNull(records.get(0).key());
        assertEquals(500L, xidHeader(records.get(0)));
    }

    @Test
    void truncatesHaveNoKeyAndMessagesAndMarkersKeepTheXid() {
        TrackedRecord truncate = withTombstones
                .toRecords(
                        new StreamItem.Truncate(
                                orders('d'),
                                new TruncateInfo(false, false),
                                change(orders('d'), Op.CREATE, null, null).stamp(),
                                SourceOffset.between(Lsn.INVALID, 3)),
                        PROCESSED)
                .get(0);
        assertNull(truncate.key());
        assertEquals(500L, xidHeader(truncate));

        ChangeStamp outside = new ChangeStamp(0, null, 0, 0, Lsn.valueOf(0x200), 0, null, 3);
        TrackedRecord message = withTombstones
                .toRecords(
                        new StreamItem.Message(
                                new LogicalMessage("app", new byte[] {1}, false),
                                outside,
                                SourceOffset.between(Lsn.INVALID, 3)),
                        PROCESSED)
                .get(0);
        assertEquals(0L, TransactionKey.xid(message.key()));
        assertEquals(-1L, xidHeader(message));
    }

    /** The lanes write a row key and a tombstone as the worker's JsonConverter would. */
    @Test
    void withPayloadFormatJsonTheKeyIsWhatKafkasJsonConverterWritesAndATombstoneStaysNull() {
        JsonConverter kafkaKeys = new JsonConverter();
        kafkaKeys.configure(Map.of("schemas.enable", "true"), true);
        StreamItem.Change delete = change(orders('d'), Op.DELETE, tuple("7", null), null);
        List<TrackedRecord> asData = withTombstones.toRecords(delete, PROCESSED);
        List<TrackedRecord> asBytes = factory(PayloadFormat.JSON, true).toRecords(delete, PROCESSED);
        assertEquals(2, asBytes.size());
        for (int i = 0; i < 2; i++) {
            assertArrayEquals(
                    kafkaKeys.fromConnectData(
                            "shop.public.orders",
                            asData.get(i).keySchema(),
                            asData.get(i).key()),
                    (byte[]) asBytes.get(i).key());
        }
        assertNull(asBytes.get(1).value());
    }

    @Test
    void tombstonesNeedRowKeys() {
        assertThrows(IllegalArgumentException.class, () -> new RecordKeys(RecordKey.TRANSACTION, true));
    }
}
