package dev.pglane.it;

import java.util.Arrays;
import java.util.List;

/**
 * One column of the every-type table: its PostgreSQL type, the SQL literal written in each row and what the record
 * must carry for it, computed without the connector's code.
 *
 * @param schemaName the semantic name of the field schema (wire-format.md §7; of the element schema for arrays),
 *     or null for plain Connect types
 * @param literals one SQL literal per row ({@code null}: SQL NULL)
 * @param expected one expectation per row: a value as {@link SourceTypesIT} normalises record values (bytes as
 *     hex, structs as maps), a {@link TextValue}, a {@link JsonText}, or {@link #SERVER_TEXT}
 */
record TypeCase(String column, String sqlType, String schemaName, List<String> literals, List<Object> expected) {
    /** The value is the server's own text output of the column (its type's output function). */
    static final Object SERVER_TEXT = new Object() {
        @Override
        public String toString() {
            return "the server's text";
        }
    };

    /** The typed field is null and {@code text_values} holds {@code after.<column>} = {@code text}. */
    record TextValue(String text) {}

    /** The value is a JSON document equal to {@code json} (key order and spacing aside). */
    record JsonText(String json) {}

    static TypeCase of(String column, String sqlType, String schemaName, String[] literals, Object... expected) {
        if (literals.length != expected.length) {
            throw new IllegalArgumentException(column + ": " + literals.length + " literals but " + expected.length
                    + " expectations: " + Arrays.toString(expected));
        }
        return new TypeCase(column, sqlType, schemaName, Arrays.asList(literals), Arrays.asList(expected));
    }

    static TextValue text(String text) {
        return new TextValue(text);
    }

    static String[] rows(String... literals) {
        return literals;
    }
}
