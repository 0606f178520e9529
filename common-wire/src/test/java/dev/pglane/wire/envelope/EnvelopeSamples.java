package dev.pglane.wire.envelope;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.RowSchemas;
import java.math.BigDecimal;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/** A small table and events on it, shared by the envelope and converter round-trip tests. */
public final class EnvelopeSamples {

    /**
     * The example table of {@code example-envelope.avsc}: {@code public.orders (id integer key,
     * amount numeric(10,2), note text, placed_at timestamptz)}, topic prefix {@code shop}.
     */
    public static final Schema ROW = RowSchemas.build(
            "shop",
            "public",
            "orders",
            List.of(
                    new Column("id", PgColumnType.of(PgType.INT4, -1), true),
                    new Column("amount", PgColumnType.of(PgType.NUMERIC, (10 << 16 | 2) + 4), false),
                    new Column("note", PgColumnType.of(PgType.TEXT, -1), false),
                    new Column("placed_at", PgColumnType.of(PgType.TIMESTAMPTZ, -1), false)),
            NumericMapping.PRECISE);

    public static final Schema ENVELOPE = new EnvelopeSchemas().forRow(ROW);

    private EnvelopeSamples() {}

    public static Struct row(int id, String amount, String note) {
        return new Struct(ROW)
                .put("id", id)
                .put("amount", amount == null ? null : new BigDecimal(amount))
                .put("note", note);
    }

    public static SourceInfo source(long xid, Lsn lsn) {
        return new SourceInfo(
                "0.1.0",
                "shop",
                "inventory",
                "public",
                "orders",
                Timestamps.ofMicros(1_700_000_000_123_456L),
                null,
                SourceInfo.sequenceOf(Lsn.parse("0/100"), lsn),
                xid,
                lsn,
                null);
    }

    public static TransactionInfo transaction(long xid, long totalOrder) {
        return new TransactionInfo(xid, totalOrder, totalOrder, null, 3);
    }

    /** An update with an unchanged TOAST column and a NaN in the numeric column (as text). */
    public static ChangeEvent update() {
        return ChangeEvent.builder(Op.UPDATE, source(4_000_000_000L, Lsn.parse("1/A0")), transaction(4_000_000_000L, 2))
                .before(row(1, "1.50", "old"))
                .after(row(1, null, null).put("placed_at", "2024-03-01T12:30:00.250000Z"))
                .unchangedToast("note")
                .textValue(RowImage.AFTER, "amount", "NaN")
                .processingTime(Timestamps.ofMicros(1_700_000_001_000_001L))
                .build();
    }
}
