package dev.pglane.source.pgoutput;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** TupleData as the parser builds it from an Insert's new tuple. */
class TupleDataTest {

    private final PgOutputParser parser = new PgOutputParser(ProtocolVersion.V4);

    /** Columns: text "héllo", null, unchanged TOAST, binary 0x00 0xFF, empty text. */
    private TupleData mixed() {
        MessageBytes message = MessageBytes.tag('I')
                .int32(1)
                .int8('N')
                .int16(5)
                .textColumn("héllo")
                .int8('n')
                .int8('u')
                .int8('b')
                .int32(2)
                .raw((byte) 0x00, (byte) 0xFF)
                .textColumn("");
        return ((InsertMessage) parser.parse(message.buffer(), false)).newTuple();
    }

    @Test
    void reportsEachColumnsKind() {
        TupleData tuple = mixed();

        assertEquals(5, tuple.size());
        assertEquals('t', tuple.kind(0));
        assertEquals('n', tuple.kind(1));
        assertEquals('u', tuple.kind(2));
        assertEquals('b', tuple.kind(3));
        assertEquals('t', tuple.kind(4));
    }

    @Test
    void decodesTextAsUtf8() {
        TupleData tuple = mixed();

        assertEquals("héllo", tuple.text(0));
        assertEquals("", tuple.text(4));
    }

    @Test
    void copiesTextAndBinaryBytes() {
        TupleData tuple = mixed();
        byte[] first = tuple.bytes(3);
        first[0] = 42;

        assertArrayEquals(new byte[] {0x00, (byte) 0xFF}, tuple.bytes(3), "a copy, not a view");
        assertArrayEquals("héllo".getBytes(StandardCharsets.UTF_8), tuple.bytes(0));
    }

    @Test
    void refusesTextOfAColumnThatHasNone() {
        TupleData tuple = mixed();

        assertEquals(
                "column 1 is of kind 'n', not text ('t'): it has no text",
                assertThrows(IllegalStateException.class, () -> tuple.text(1)).getMessage());
        assertThrows(IllegalStateException.class, () -> tuple.text(3));
        assertEquals(
                "column 2 is of kind 'u': it carries no bytes",
                assertThrows(IllegalStateException.class, () -> tuple.bytes(2)).getMessage());
    }

    @Test
    void refusesAColumnOutsideTheTuple() {
        TupleData tuple = mixed();

        assertEquals(
                "column 5 of a tuple with 5 columns",
                assertThrows(IndexOutOfBoundsException.class, () -> tuple.kind(5))
                        .getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> tuple.text(-1));
    }

    @Test
    void printsKindsAndSizesButNoValues() {
        String printed = mixed().toString();

        assertEquals("TupleData[t(6), n, u, b(2), t(0)]", printed);
        assertFalse(printed.contains("llo"));
    }

    @Test
    void namesTheColumnWithAnUnknownKind() {
        MessageBytes message = MessageBytes.tag('I')
                .int32(1)
                .int8('N')
                .int16(2)
                .textColumn("a")
                .int8('x');
        String failure = message.parseFailure(false);
        assertEquals(
                "pgoutput Insert 'I' (0x49): field new tuple.column[1].kind at offset 14: unknown column kind 'x'"
                        + " (0x78) (expected n, u, t or b)",
                failure);
    }

    @Test
    void namesAColumnWithANegativeLength() {
        MessageBytes message =
                MessageBytes.tag('I').int32(1).int8('N').int16(1).int8('t').int32(-5);
        String failure = message.parseFailure(false);
        assertEquals(
                "pgoutput Insert 'I' (0x49): field new tuple.column[0].length at offset 9: negative length -5",
                failure);
    }

    @Test
    void namesAColumnValueCutShort() {
        MessageBytes message = MessageBytes.tag('I')
                .int32(1)
                .int8('N')
                .int16(1)
                .int8('t')
                .int32(10)
                .raw((byte) 'a');
        String failure = message.parseFailure(false);
        assertEquals(
                "pgoutput Insert 'I' (0x49): field new tuple.column[0].value at offset 13: needs 10 bytes but the"
                        + " message ends after 1 (truncated message)",
                failure);
    }

    @Test
    void namesATupleWithFewerColumnsThanItCounts() {
        MessageBytes message = MessageBytes.tag('I').int32(1).int8('N').int16(3).int8('n');
        String failure = message.parseFailure(false);
        assertEquals(
                "pgoutput Insert 'I' (0x49): field new tuple.column[1].kind at offset 9: needs 1 bytes but the"
                        + " message ends after 0 (truncated message)",
                failure);
    }
}
