package dev.pglane.local.verify;

import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Walks two key-ordered row streams side by side, like a merge join, and stops at the first disagreement, so a
 * table of any size is compared in constant memory.
 *
 * <p>Both sides are sorted by their key texts under {@code COLLATE "C"}, which is byte order of UTF-8 and therefore
 * Unicode code point order; {@link #KEY_ORDER} is the same order in Java. (Plain {@link String#compareTo} compares
 * UTF-16 units and would disagree with PostgreSQL beyond the Basic Multilingual Plane.)
 */
final class KeyedRowMerge {
    static final Comparator<List<String>> KEY_ORDER = KeyedRowMerge::compareKeys;

    private KeyedRowMerge() {}

    static Optional<RowDifference> firstDifference(RowCursor source, RowCursor target) throws SQLException {
        KeyedRow s = source.next();
        KeyedRow t = target.next();
        while (s != null || t != null) {
            int order = s == null ? 1 : t == null ? -1 : KEY_ORDER.compare(s.key(), t.key());
            if (order < 0) {
                return Optional.of(new RowDifference(s.key(), s.row(), null));
            }
            if (order > 0) {
                return Optional.of(new RowDifference(t.key(), null, t.row()));
            }
            if (!s.row().equals(t.row())) {
                return Optional.of(new RowDifference(s.key(), s.row(), t.row()));
            }
            s = source.next();
            t = target.next();
        }
        return Optional.empty();
    }

    private static int compareKeys(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int order = compareCodePoints(a.get(i), b.get(i));
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
