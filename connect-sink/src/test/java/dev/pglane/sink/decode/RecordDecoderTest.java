package dev.pglane.sink.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.sink.admit.RecordAdmission;
import dev.pglane.sink.admit.TableIncludeList;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.RowKey;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.RowSchemas;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/** What a record keyed by row decodes to: the records only per-key consumers need, and the xid of a bad one. */
class RecordDecoderTest {
    private static final String TOPIC = "shop.public.ledger";
    private static final Schema ROW = RowSchemas.build(
            "shop",
            "public",
            "ledger",
            List.of(new Column("id", PgColumnType.of(PgType.INT4.oid(), -1), true)),
            NumericMapping.PRECISE);
    private static final Schema ENVELOPE = new EnvelopeSchemas().forRow(ROW);
    private static final Schema KEY = RowKey.schema("shop", "public", "ledger", ROW, List.of("id"));

    private final RecordDecoder decoder = new RecordDecoder(
            "shop.transactions",
            new RecordAdmission(
                    TopicNames.perTable("shop"),
                    new TableIncludeList(List.of()),
                    new TableMapping("${schema}.${table}"),
                    null,
                    false),
            new PayloadReader.AsDelivered(),
            new EnvelopeReader.Pglane());

    private static SinkRecord record(Object value, long xid) {
        ConnectHeaders headers = new ConnectHeaders();
        headers.addLong(RowKey.XID_HEADER, xid);
        return new SinkRecord(
                TOPIC,
                0,
                KEY,
                new Struct(KEY).put("id", 1),
                value == null ? null : ENVELOPE,
                value,
                7,
                null,
                org.apache.kafka.common.record.TimestampType.NO_TIMESTAMP_TYPE,
                headers);
    }

    @Test
    void tombstonesAndKeyMovesDeletesAreForPerKeyConsumersOnly() {
        assertInstanceOf(RecordDecoder.PerKeyRecord.class, decoder.decode(record(null, 900)));
        ChangeEvent moved = ChangeEvent.builder(
                        Op.DELETE,
                        new SourceInfo(
                                "0.1.0",
                                "shop",
                                "db",
                                "public",
                                "ledger",
                                Timestamps.ofMicros(0),
                                null,
                                null,
                                900,
                                Lsn.parse("0/800"),
                                null),
                        null)
                .before(new Struct(ROW).put("id", 1))
                .build();
        assertInstanceOf(
                RecordDecoder.PerKeyRecord.class,
                decoder.decode(record(ChangeEnvelope.toStruct(moved, ENVELOPE), 900)));
    }

    @Test
    void aChangeWhoseKeyNamesAnotherXidThanItsTransactionBlockIsRefused() {
        ChangeEvent insert = ChangeEvent.builder(
                        Op.CREATE,
                        new SourceInfo(
                                "0.1.0",
                                "shop",
                                "db",
                                "public",
                                "ledger",
                                Timestamps.ofMicros(0),
                                null,
                                null,
                                900,
                                Lsn.parse("0/800"),
                                null),
                        new TransactionInfo(900, 1, 1, null, 1))
                .after(new Struct(ROW).put("id", 1))
                .build();
        Object value = ChangeEnvelope.toStruct(insert, ENVELOPE);
        assertInstanceOf(RecordDecoder.Change.class, decoder.decode(record(value, 900)));

        RecordDecoder.Undecodable forged =
                assertInstanceOf(RecordDecoder.Undecodable.class, decoder.decode(record(value, 901)));

        assertEquals(901L, forged.keyXid());
        assertTrue(forged.refused());
        assertEquals(
                "its key names xid 901 but its transaction block xid 900; the source writes the same xid in both",
                forged.cause().getMessage());
    }

    @Test
    void whateverThePayloadReaderTripsOverInARecordIsThatRecordsProblem() {
        RecordDecoder json = new RecordDecoder(
                "shop.transactions",
                new RecordAdmission(
                        TopicNames.perTable("shop"),
                        new TableIncludeList(List.of()),
                        new TableMapping("${schema}.${table}"),
                        null,
                        false),
                PayloadReader.of(PayloadFormat.JSON, Map.of()),
                new EnvelopeReader.Pglane());
        // a Decimal whose schema lost its parameters (the scale): Connect's Decimal.scale() throws a
        // NullPointerException, which used to leave put() naming no record
        String value = "{\"schema\":{\"type\":\"struct\",\"optional\":false,\"fields\":[{\"type\":\"struct\","
                + "\"optional\":true,\"field\":\"after\",\"fields\":[{\"type\":\"bytes\",\"optional\":true,"
                + "\"name\":\"org.apache.kafka.connect.data.Decimal\",\"version\":1,\"field\":\"amount\"}]}]},"
                + "\"payload\":{\"after\":{\"amount\":\"AJY=\"}}}";
        ConnectHeaders headers = new ConnectHeaders();
        headers.addLong(RowKey.XID_HEADER, 902);
        SinkRecord record = new SinkRecord(
                TOPIC,
                0,
                null,
                null,
                null,
                value.getBytes(StandardCharsets.UTF_8),
                8,
                null,
                org.apache.kafka.common.record.TimestampType.NO_TIMESTAMP_TYPE,
                headers);

        RecordDecoder.Undecodable bad = assertInstanceOf(RecordDecoder.Undecodable.class, json.decode(record));

        assertEquals(902L, bad.keyXid());
        assertTrue(
                bad.cause().getMessage().startsWith("cannot be read: "),
                bad.cause().getMessage());
    }

    @Test
    void aRecordThatIsNotAnEnvelopeIsNamedWithTheXidOfItsHeader() {
        RecordDecoder.Undecodable bad =
                assertInstanceOf(RecordDecoder.Undecodable.class, decoder.decode(record("not an envelope", 901)));
        assertEquals(901L, bad.keyXid());
    }
}
