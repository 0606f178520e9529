package dev.pglane.local.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KeyedRowMergeTest {

    @Test
    void equalStreamsHaveNoDifference() throws SQLException {
        List<KeyedRow> rows = List.of(row("1", "(1,a)"), row("2", "(2,b)"));
        assertTrue(KeyedRowMerge.firstDifference(cursor(rows), cursor(rows)).isEmpty());
        assertTrue(KeyedRowMerge.firstDifference(cursor(List.of()), cursor(List.of()))
                .isEmpty());
    }

    @Test
    void sameKeyDifferentRowIsReportedWithBothRows() throws SQLException {
        Optional<RowDifference> difference = KeyedRowMerge.firstDifference(
                cursor(List.of(row("1", "(1,a)"), row("2", "(2,b)"), row("3", "(3,c)"))),
                cursor(List.of(row("1", "(1,a)"), row("2", "(2,B)"), row("3", "(3,C)"))));
        assertEquals(Optional.of(new RowDifference(List.of("2"), "(2,b)", "(2,B)")), difference);
    }

    @Test
    void keyOnlyOnOneSideIsReportedWithoutTheOtherRow() throws SQLException {
        List<KeyedRow> full = List.of(row("1", "(1,a)"), row("2", "(2,b)"), row("3", "(3,c)"));
        List<KeyedRow> gap = List.of(row("1", "(1,a)"), row("3", "(3,c)"));
        assertEquals(
                Optional.of(new RowDifference(List.of("2"), "(2,b)", null)),
                KeyedRowMerge.firstDifference(cursor(full), cursor(gap)));
        assertEquals(
                Optional.of(new RowDifference(List.of("2"), null, "(2,b)")),
                KeyedRowMerge.firstDifference(cursor(gap), cursor(full)));
    }

    @Test
    void rowsPastTheOtherSidesEndAreReported() throws SQLException {
        List<KeyedRow> longer = List.of(row("1", "(1,a)"), row("2", "(2,b)"));
        assertEquals(
                Optional.of(new RowDifference(List.of("2"), null, "(2,b)")),
                KeyedRowMerge.firstDifference(cursor(longer.subList(0, 1)), cursor(longer)));
    }

    @Test
    void duplicateRowsOfAKeylessTablePairUp() throws SQLException {
        KeyedRow dup = new KeyedRow(List.of("(1,a)"), "(1,a)");
        assertTrue(KeyedRowMerge.firstDifference(cursor(List.of(dup, dup)), cursor(List.of(dup, dup)))
                .isEmpty());
        assertEquals(
                Optional.of(new RowDifference(dup.key(), "(1,a)", null)),
                KeyedRowMerge.firstDifference(cursor(List.of(dup, dup)), cursor(List.of(dup))));
    }

    @Test
    void keysCompareByCodePointLikeCollateC() {
        // UTF-16 order would put the surrogate pair of U+1F680 before U+FFFD; UTF-8 byte order does not
        assertTrue(KeyedRowMerge.KEY_ORDER.compare(List.of("\uFFFD"), List.of("\uD83D\uDE80")) < 0);
        assertTrue(KeyedRowMerge.KEY_ORDER.compare(List.of("10"), List.of("9")) < 0);
        assertTrue(KeyedRowMerge.KEY_ORDER.compare(List.of("a"), List.of("ab")) < 0);
        assertTrue(KeyedRowMerge.KEY_ORDER.compare(List.of("a", "2"), List.of("a", "10")) > 0);
        assertEquals(0, KeyedRowMerge.KEY_ORDER.compare(List.of("x", "y"), List.of("x", "y")));
    }

    private static KeyedRow row(String key, String row) {
        return new KeyedRow(List.of(key), row);
    }

    private static RowCursor cursor(List<KeyedRow> rows) {
        Iterator<KeyedRow> it = rows.iterator();
        return () -> it.hasNext() ? it.next() : null;
    }
}
