package dev.pglane.sink.decode;

import dev.pglane.wire.TopicNames;

/** Which connector wrote the topics the sink reads (the key {@code source.format}). */
public enum SourceFormat {
    /** pglane's source: its envelopes and its marker topic {@code <prefix>.transactions}. */
    PGLANE,
    /**
     * Debezium's PostgreSQL connector with {@code provide.transaction.metadata=true}: its envelopes, and its
     * transaction metadata topic {@code <prefix>.transaction} as the markers ({@link dev.pglane.wire.debezium}).
     */
    DEBEZIUM;

    /** The source's topics under {@code prefix}, per table. */
    public TopicNames perTable(String prefix) {
        return this == DEBEZIUM ? TopicNames.debezium(prefix) : TopicNames.perTable(prefix);
    }
}
