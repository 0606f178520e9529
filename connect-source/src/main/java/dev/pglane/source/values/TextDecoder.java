package dev.pglane.source.values;

/**
 * Turns PostgreSQL's text output of one type into the Connect value of that type's field schema. One instance is
 * chosen per column when the relation is described ({@link TextDecoders}), so decoding a value is one virtual call.
 *
 * <p>A text that cannot be parsed throws a {@link RuntimeException} (usually {@link IllegalArgumentException});
 * {@link RowDecoder} adds the column, type and text. A value that parses but that the typed field cannot hold is
 * returned as {@link #UNREPRESENTABLE}, and travels in the envelope's {@code text_values} instead.
 */
@FunctionalInterface
interface TextDecoder {

    /** The result for a value the field schema cannot hold losslessly: the text goes to {@code text_values}. */
    Object UNREPRESENTABLE = Unrepresentable.VALUE;

    /** Decoders for types that travel as PostgreSQL's text, unchanged. */
    TextDecoder TEXT = text -> text;

    /**
     * @param text PostgreSQL's text output, never null (SQL NULL never reaches a decoder)
     * @return the field value, or {@link #UNREPRESENTABLE}
     */
    Object decode(String text);

    /** The type of {@link #UNREPRESENTABLE}: a marker no decoder can produce as a real value. */
    enum Unrepresentable {
        VALUE
    }
}
