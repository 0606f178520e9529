package dev.pglane.wire.envelope;

import static dev.pglane.wire.envelope.EnvelopeSamples.row;
import static dev.pglane.wire.envelope.EnvelopeSamples.source;
import static dev.pglane.wire.envelope.EnvelopeSamples.transaction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.WireFormatException;
import org.junit.jupiter.api.Test;

/** The op/field rules, which protect both the source (building) and the sink (reading). */
class ChangeEventTest {

    private static ChangeEvent.Builder builder(Op op) {
        return ChangeEvent.builder(op, source(5, Lsn.parse("0/10")), transaction(5, 1));
    }

    private static String failure(ChangeEvent.Builder builder) {
        return assertThrows(WireFormatException.class, builder::build).getMessage();
    }

    @Test
    void updateNeedsAfter() {
        assertEquals(
                "envelope field 'after': required for op 'u' but missing (value: null)",
                failure(builder(Op.UPDATE).before(row(1, null, null))));
    }

    @Test
    void deleteNeedsBeforeAndNoAfter() {
        assertEquals(
                "envelope field 'before': required for op 'd' but missing (value: null)", failure(builder(Op.DELETE)));
        String message = failure(builder(Op.DELETE).before(row(1, null, null)).after(row(1, null, null)));
        assertEquals(true, message.startsWith("envelope field 'after': not allowed for op 'd'"), message);
    }

    @Test
    void insertHasNoBefore() {
        String message = failure(builder(Op.CREATE).before(row(1, null, null)).after(row(1, null, null)));
        assertEquals(true, message.startsWith("envelope field 'before': not allowed for op 'c'"), message);
    }

    @Test
    void truncateAndMessageOnlyWithTheirOps() {
        assertEquals(
                "envelope field 'truncate': required for op 't' but missing (value: null)",
                failure(builder(Op.TRUNCATE)));
        String message = failure(builder(Op.CREATE).after(row(1, null, null)).truncate(new TruncateInfo(false, false)));
        assertEquals(true, message.startsWith("envelope field 'truncate': not allowed for op 'c'"), message);
        assertEquals(
                "envelope field 'message': required for op 'm' but missing (value: null)",
                failure(builder(Op.MESSAGE)));
    }

    /** A delete outside any transaction is a key move's delete; every other change needs its transaction. */
    @Test
    void aDeleteWithoutATransactionIsAKeyMovesDelete() {
        ChangeEvent moved = ChangeEvent.builder(Op.DELETE, source(5, Lsn.parse("0/10")), null)
                .before(row(1, null, null))
                .build();
        assertEquals(true, moved.isKeyMoveDelete());
        assertEquals(
                false, builder(Op.DELETE).before(row(1, null, null)).build().isKeyMoveDelete());
        for (Op op : new Op[] {Op.UPDATE, Op.READ}) {
            ChangeEvent.Builder noTx =
                    ChangeEvent.builder(op, source(5, Lsn.parse("0/10")), null).after(row(1, null, null));
            assertEquals(
                    "envelope field 'transaction': required for op '" + op.code() + "' but missing (value: null)",
                    failure(noTx));
        }
    }

    @Test
    void transactionRequiredExceptForNonTransactionalMessages() {
        ChangeEvent.Builder noTx = ChangeEvent.builder(Op.CREATE, source(5, Lsn.parse("0/10")), null)
                .after(row(1, null, null));
        assertEquals("envelope field 'transaction': required for op 'c' but missing (value: null)", failure(noTx));
        String message = failure(builder(Op.MESSAGE).message(new LogicalMessage("p", new byte[0], false)));
        assertEquals(true, message.startsWith("envelope field 'transaction': not allowed for op 'm'"), message);
    }

    @Test
    void unchangedToastOnlyOnUpdateAndOnNullColumns() {
        assertEquals(
                "envelope field 'unchanged_toast': only an update (op u) can have unchanged TOAST values (value: [note])",
                failure(builder(Op.CREATE).after(row(1, null, null)).unchangedToast("note")));
        assertEquals(
                "envelope field 'unchanged_toast': the column's typed field in after must be null (value: note)",
                failure(builder(Op.UPDATE).after(row(1, null, "x")).unchangedToast("note")));
        assertEquals(
                "envelope field 'unchanged_toast': is not a column of after (shop.public.orders.Value) (value: nope)",
                failure(builder(Op.UPDATE).after(row(1, null, null)).unchangedToast("nope")));
    }

    @Test
    void textValuesNeedANullColumnOfAPresentRow() {
        assertEquals(
                "envelope field 'text_values': names a column of before, which is absent (value: before.amount)",
                failure(builder(Op.CREATE).after(row(1, null, null)).textValue(RowImage.BEFORE, "amount", "NaN")));
        assertEquals(
                "envelope field 'text_values': the column's typed field in after must be null (value: amount)",
                failure(builder(Op.CREATE).after(row(1, "1.00", null)).textValue(RowImage.AFTER, "amount", "NaN")));
    }
}
