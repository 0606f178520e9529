package dev.pglane.source.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pglane.source.pgoutput.TupleData;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CopyTextRowTest {

    @Test
    void fieldsAreUnescapedAndNullsKept() {
        TupleData row = parse("7\ta\\tb\\nc\\\\d\t\\N\t\t\u00e9\\r\n", 5);
        assertEquals("7", row.text(0));
        assertEquals("a\tb\nc\\d", row.text(1));
        assertEquals('n', row.kind(2));
        assertEquals("", row.text(3));
        assertEquals("\u00e9\r", row.text(4));
    }

    @Test
    void aLastNullAndAnEmptyLastFieldDiffer() {
        assertEquals('n', parse("1\t\\N\n", 2).kind(1));
        assertEquals("", parse("1\t\n", 2).text(1));
        assertEquals("\\N", parse("\\\\N\n", 1).text(0));
    }

    @Test
    void aRowOfAnotherWidthOrAnUnknownEscapeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> parse("1\t2\n", 1));
        assertThrows(IllegalArgumentException.class, () -> parse("1\n", 2));
        assertThrows(IllegalArgumentException.class, () -> parse("\\x41\n", 1));
    }

    private static TupleData parse(String line, int columns) {
        return CopyTextRow.parse(line.getBytes(StandardCharsets.UTF_8), columns);
    }
}
