package dev.pglane.source.values;

import java.util.function.UnaryOperator;

/**
 * What the {@link RowDecoder} does with one column of a tuple: decode it, leave it out of the row, or replace its text
 * by a mask (a string field then) before anything else sees it.
 *
 * @param excluded the column is left out: no field, its value never read
 * @param mask turns the column's text into the masked text; {@code null} when the column is not masked
 */
public record ColumnTreatment(boolean excluded, UnaryOperator<String> mask) {
    public static final ColumnTreatment KEEP = new ColumnTreatment(false, null);
    public static final ColumnTreatment EXCLUDE = new ColumnTreatment(true, null);

    public static ColumnTreatment masked(UnaryOperator<String> mask) {
        return new ColumnTreatment(false, mask);
    }

    public boolean masked() {
        return mask != null;
    }
}
