package dev.pglane.sink.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CopyTextRowsTest {
    @Test
    void valuesAreTabSeparatedRowsEndInANewlineAndNullIsBackslashN() {
        CopyTextRows rows = new CopyTextRows(16);
        rows.value("1");
        rows.value(null);
        rows.value("");
        rows.endRow();
        rows.value("2");
        rows.endRow();
        assertEquals("1\t\\N\t\n2\n", rows.take());
        assertEquals(0, rows.length());
    }

    @Test
    void theFormatsOwnCharactersAreEscapedInsideAValue() {
        CopyTextRows rows = new CopyTextRows(16);
        rows.value("a\tb\nc\rd\\e");
        rows.value("\\N");
        rows.endRow();
        assertEquals("a\\tb\\nc\\rd\\\\e\t\\\\N\n", rows.take());
    }

    @Test
    void plainValuesOfAnyAlphabetGoInAsTheyAreAndAnEscapeMayComeLast() {
        CopyTextRows rows = new CopyTextRows(4);
        rows.value("naïve € 東京");
        rows.value("ends in a tab\t");
        rows.endRow();
        assertEquals("naïve € 東京\tends in a tab\\t\n", rows.take());
    }
}
