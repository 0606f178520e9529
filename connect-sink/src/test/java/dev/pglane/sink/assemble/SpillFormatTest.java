package dev.pglane.sink.assemble;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSamples;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.envelope.TruncateInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SpillFormatTest {
    private static final Schema POINT = SchemaBuilder.struct()
            .name("shop.Point")
            .optional()
            .field("x", Schema.FLOAT64_SCHEMA)
            .field("y", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .build();

    /** A row with a field of every Connect type the codec handles, optional and required. */
    private static final Schema RICH_ROW = SchemaBuilder.struct()
            .name("shop.public.rich.Value")
            .optional()
            .field("i8", Schema.INT8_SCHEMA)
            .field("i16", Schema.OPTIONAL_INT16_SCHEMA)
            .field("i32", Schema.OPTIONAL_INT32_SCHEMA)
            .field("i64", Schema.OPTIONAL_INT64_SCHEMA)
            .field("f32", Schema.OPTIONAL_FLOAT32_SCHEMA)
            .field("f64", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("flag", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .field("text", Schema.OPTIONAL_STRING_SCHEMA)
            .field("bytes", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("buffer", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("amount", Decimal.builder(3).optional().build())
            .field("day", Date.builder().optional().build())
            .field("at", Timestamp.builder().optional().build())
            .field(
                    "tags",
                    SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA)
                            .optional()
                            .build())
            .field("points", SchemaBuilder.array(POINT).optional().build())
            .field(
                    "attrs",
                    SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT32_SCHEMA)
                            .optional()
                            .build())
            .field("where", POINT)
            .field("missing", Schema.OPTIONAL_STRING_SCHEMA)
            .build();

    private final SpillFormat format = new SpillFormat(new EnvelopeSchemas());

    @Test
    void aRichEnvelopeComesBackEqual() throws IOException {
        Struct before = new Struct(RICH_ROW).put("i8", (byte) 1);
        Struct after = new Struct(RICH_ROW)
                .put("i8", (byte) -8)
                .put("i16", (short) 1600)
                .put("i32", 32)
                .put("i64", Long.MIN_VALUE)
                .put("f32", 3.5f)
                .put("f64", Double.NaN)
                .put("flag", true)
                .put("text", "zürich € 😀")
                .put("bytes", new byte[] {0, 1, 2, -1})
                .put("buffer", ByteBuffer.wrap(new byte[] {9, 8, 7}))
                .put("amount", new BigDecimal("-12345678901234567890.125"))
                .put("day", new java.util.Date(86_400_000L * 19_000))
                .put("at", new java.util.Date(1_700_000_000_123L))
                .put("tags", Arrays.asList("a", null, ""))
                .put(
                        "points",
                        List.of(
                                new Struct(POINT).put("x", 1.0),
                                new Struct(POINT).put("x", 2.0).put("y", -2.0)))
                .put("attrs", Map.of("k", 1, "empty", 0))
                .put("where", new Struct(POINT).put("x", 0.5).put("y", 0.25));
        ChangeEvent update = ChangeEvent.builder(Op.UPDATE, Changes.source(7), new TransactionInfo(7, 3, 2, 9L, 4))
                .before(before)
                .after(after)
                .unchangedToast("missing")
                .textValue(RowImage.BEFORE, "i16", "NaN")
                .processingTime(Timestamps.ofMicros(1_700_000_001_000_001L))
                .build();

        ChangeRecord back = roundTrip(new ChangeRecord(new TopicPartition("shop.public.rich", 2), 77, update, 999))
                .get(0);

        assertEquals(new TopicPartition("shop.public.rich", 2), back.partition());
        assertEquals(77, back.offset());
        assertEquals(999, back.sizeBytes());
        assertSame(RICH_ROW, back.event().after().schema(), "the original schema objects are reused");
        assertArrayEquals(new byte[] {9, 8, 7}, (byte[]) back.event().after().get("buffer"));
        Struct expectedAfter = copyWithBufferAsArray(after);
        assertEquals(expectedAfter, back.event().after());
        assertEquals(before, back.event().before());
        assertEquals(update.unchangedToast(), back.event().unchangedToast());
        assertEquals(update.textValues(), back.event().textValues());
        assertEquals(update.source(), back.event().source());
        assertEquals(update.transaction(), back.event().transaction());
        assertEquals(update.processingTime(), back.event().processingTime());
    }

    @Test
    void everyOpComesBackEqualAndAPendingSnapshotFlagStays() throws IOException {
        List<ChangeEvent> events = List.of(
                EnvelopeSamples.update(),
                ChangeEvent.builder(Op.DELETE, Changes.source(7), EnvelopeSamples.transaction(7, 1))
                        .before(EnvelopeSamples.row(1, null, null))
                        .build(),
                ChangeEvent.builder(Op.TRUNCATE, Changes.source(7), EnvelopeSamples.transaction(7, 2))
                        .truncate(new TruncateInfo(true, false))
                        .build(),
                ChangeEvent.builder(Op.MESSAGE, Changes.messageSource(7), EnvelopeSamples.transaction(7, 3))
                        .message(new LogicalMessage("p", "body".getBytes(StandardCharsets.UTF_8), true))
                        .build(),
                ChangeEvent.builder(
                                Op.READ, EnvelopeSamples.source(7, Lsn.parse("0/1")), EnvelopeSamples.transaction(7, 4))
                        .after(EnvelopeSamples.row(2, "0.01", "snap"))
                        .build(),
                ChangeEvent.builder(Op.DELETE, Changes.source(7), EnvelopeSamples.transaction(7, 5))
                        .before(EnvelopeSamples.row(3, null, null))
                        .pendingSnapshot(true)
                        .build());
        List<ChangeRecord> records = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            records.add(new ChangeRecord(new TopicPartition("t", 0), i, events.get(i), 10));
        }

        List<ChangeRecord> back = roundTrip(records.toArray(ChangeRecord[]::new));

        assertEquals(records, back);
    }

    private List<ChangeRecord> roundTrip(ChangeRecord... records) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            for (ChangeRecord record : records) {
                format.write(out, record);
            }
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        List<ChangeRecord> back = new ArrayList<>();
        for (int i = 0; i < records.length; i++) {
            back.add(format.read(in));
        }
        assertEquals(-1, in.read(), "nothing left over");
        return back;
    }

    private static Struct copyWithBufferAsArray(Struct row) {
        Struct copy = new Struct(row.schema());
        row.schema().fields().forEach(field -> copy.put(field, row.getWithoutDefault(field.name())));
        ByteBuffer buffer = (ByteBuffer) row.get("buffer");
        byte[] array = new byte[buffer.remaining()];
        buffer.duplicate().get(array);
        return copy.put("buffer", array);
    }
}
