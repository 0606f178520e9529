package dev.pglane.it.bench.engine;

import org.apache.kafka.connect.source.SourceRecord;

/**
 * What the engine's no-op consumer does with each record: count the backlog's transactions and changes, and notice
 * the fence transaction that ends the backlog. Fed from the engine's one consumer thread, read by the main thread
 * after {@link #done()} turned true.
 */
interface EndWatch {
    void accept(SourceRecord record);

    /** Whether the fence transaction has been seen: every backlog record came before it. */
    boolean done();

    long transactions();

    long changes();

    /** The watch for {@code connector}, configured from the run's properties. */
    static EndWatch of(String connector, long fenceXid) {
        return switch (connector) {
            case "pglane" -> new PglaneEndWatch(fenceXid);
            case "debezium" -> new DebeziumEventWatch();
            default -> throw new IllegalArgumentException("no end watch for connector " + connector);
        };
    }
}
