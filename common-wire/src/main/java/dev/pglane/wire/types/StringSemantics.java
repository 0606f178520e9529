package dev.pglane.wire.types;

import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Semantic names of STRING columns whose text is PostgreSQL's own output, unchanged. The name tells
 * a consumer how to read the text; Debezium's names are used where Debezium has one.
 */
public final class StringSemantics {

    /** json, jsonb, and hstore rendered as a JSON object. */
    public static final String JSON = "io.debezium.data.Json";

    public static final String XML = "io.debezium.data.Xml";
    public static final String UUID = "io.debezium.data.Uuid";
    public static final String LTREE = "io.debezium.data.Ltree";
    public static final String TSVECTOR = "io.debezium.data.Tsvector";

    /** Enum labels; the parameter {@link #ENUM_ALLOWED} lists the labels, comma-separated. */
    public static final String ENUM = "io.debezium.data.Enum";

    public static final String ENUM_ALLOWED = "allowed";

    /**
     * {@code bit varying} (and {@code bit} without a length) as a string of {@code '0'}/{@code '1'},
     * most significant bit first. No Debezium name fits a variable length, hence pglane's own.
     */
    public static final String BIT_STRING = "dev.pglane.data.BitString";

    private StringSemantics() {}

    /** A STRING schema builder named {@code semanticName} (version 1, like Debezium's). */
    public static SchemaBuilder builder(String semanticName) {
        return SchemaBuilder.string().name(semanticName).version(1);
    }
}
