package dev.pglane.wire.envelope;

import dev.pglane.wire.WireFormatException;

/** The envelope's {@code op}: what happened to the row, with Debezium's one-letter codes. */
public enum Op {
    /** INSERT: {@code after} only. */
    CREATE("c"),
    /** UPDATE: {@code after}, and {@code before} when PostgreSQL sent the old key or old row. */
    UPDATE("u"),
    /** DELETE: {@code before} only (the key columns, or the whole row under REPLICA IDENTITY FULL). */
    DELETE("d"),
    /** TRUNCATE of one table: neither row, {@code truncate} set. */
    TRUNCATE("t"),
    /** A row of the initial snapshot: {@code after} only. */
    READ("r"),
    /** A logical decoding message ({@code pg_logical_emit_message}): {@code message} set. */
    MESSAGE("m");

    private final String code;

    Op(String code) {
        this.code = code;
    }

    /** The wire code, e.g. {@code "c"}. */
    public String code() {
        return code;
    }

    /**
     * The op for a wire code.
     *
     * @throws WireFormatException naming the code if it is unknown
     */
    public static Op fromCode(String code) {
        for (Op op : values()) {
            if (op.code.equals(code)) {
                return op;
            }
        }
        throw WireFormatException.forField("envelope", "op", code, "unknown operation, expected one of c,u,d,t,r,m");
    }
}
