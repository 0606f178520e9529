package dev.pglane.sink.values;

import org.apache.kafka.connect.data.Schema;

/**
 * Turns a Connect value of the wire contract back into PostgreSQL's text input form, so the sink
 * binds every parameter as text and the server parses it into the target column's type: the mirror
 * of the source's {@code values} package.
 */
public final class PgText {
    private PgText() {}

    /**
     * The PostgreSQL text input for {@code value} of a column field with {@code schema}, or {@code null}
     * for SQL NULL.
     *
     * @throws org.apache.kafka.connect.errors.DataException if the value does not fit the schema
     */
    public static String of(Schema schema, Object value) {
        throw new UnsupportedOperationException("not yet");
    }
}
