package dev.pglane.source.pgoutput;

/**
 * The pgoutput {@code proto_version} pglane requests: the newest the server speaks.
 *
 * <p>Version 2 (PostgreSQL 14) added streaming of in-progress transactions, 3 (PostgreSQL 15) two-phase
 * messages, which pglane never enables, and 4 (PostgreSQL 16) parallel streaming, whose only wire effect is the
 * abort LSN and time in Stream Abort.
 */
public enum ProtocolVersion {
    V2(2),
    V3(3),
    V4(4);

    private final int number;

    ProtocolVersion(int number) {
        this.number = number;
    }

    /** The value of the {@code proto_version} START_REPLICATION option. */
    public int number() {
        return number;
    }

    /** True from PostgreSQL 16 on, whose pgoutput also takes the {@code origin} option. */
    public boolean filtersOrigin() {
        return this == V4;
    }

    /**
     * The protocol version for a server, from its {@code server_version_num}.
     *
     * @throws IllegalArgumentException for servers older than PostgreSQL 14, which lack streaming and the
     *     {@code messages} option
     */
    public static ProtocolVersion forServer(int serverVersionNum) {
        if (serverVersionNum >= 160000) {
            return V4;
        }
        if (serverVersionNum >= 150000) {
            return V3;
        }
        if (serverVersionNum >= 140000) {
            return V2;
        }
        throw new IllegalArgumentException(
                "PostgreSQL " + displayVersion(serverVersionNum) + " is not supported; pglane needs 14 or newer");
    }

    /**
     * {@code 130012} → {@code 13.12}; before PostgreSQL 10 the number held three parts: {@code 90624} →
     * {@code 9.6}.
     */
    private static String displayVersion(int serverVersionNum) {
        if (serverVersionNum >= 100000) {
            return serverVersionNum / 10000 + "." + serverVersionNum % 10000;
        }
        return serverVersionNum / 10000 + "." + serverVersionNum / 100 % 100;
    }
}
