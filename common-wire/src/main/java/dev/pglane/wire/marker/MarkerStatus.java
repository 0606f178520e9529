package dev.pglane.wire.marker;

import dev.pglane.wire.WireFormatException;

/** The marker's {@code status}: Debezium's BEGIN and END, plus pglane's ABORT, START and HEARTBEAT. */
public enum MarkerStatus {
    BEGIN,
    END,
    ABORT,
    START,
    HEARTBEAT;

    /**
     * The status for a wire value.
     *
     * @throws WireFormatException naming the value if it is unknown
     */
    public static MarkerStatus fromWire(String status) {
        for (MarkerStatus s : values()) {
            if (s.name().equals(status)) {
                return s;
            }
        }
        throw WireFormatException.forField(
                "marker", "status", status, "unknown status, expected BEGIN, END, ABORT, START or HEARTBEAT");
    }
}
