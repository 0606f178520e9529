package dev.pglane.local.bench.engine;

import org.apache.kafka.connect.source.SourceRecord;

/**
 * What the engine's no-op consumer does with each record: count the backlog's transactions and changes, and notice
 * the fence transaction that ends the backlog. Fed from the engine's one consumer thread, read by the main thread
 * after {@link #done()} turned true. Each connector's records say these things differently: one subclass each.
 */
abstract class EndWatch {
    protected long transactions;
    protected long changes;
    protected boolean fence;

    abstract void accept(SourceRecord record);

    /** Whether the fence transaction has been seen: every backlog record came before it. */
    final boolean done() {
        return fence;
    }

    final long transactions() {
        return transactions;
    }

    final long changes() {
        return changes;
    }

    /** The watch for {@code connector} (pglane or debezium). */
    static EndWatch of(String connector, long fenceXid) {
        return switch (connector) {
            case "pglane" -> new PglaneEndWatch(fenceXid);
            case "debezium" -> new DebeziumEventWatch();
            default -> throw new IllegalArgumentException("no end watch for connector " + connector);
        };
    }
}
