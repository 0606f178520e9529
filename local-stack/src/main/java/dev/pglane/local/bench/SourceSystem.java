package dev.pglane.local.bench;

import java.util.Arrays;
import java.util.Optional;

/**
 * The readers of the source stage, in the order reports list them, with the names {@code report.json} gives them:
 * {@code system} as issue #6 defines it, and {@code consumer} to tell pglane's two runs apart.
 */
public enum SourceSystem {
    RECVLOGICAL(RecvLogicalRun.SYSTEM, "pg_recvlogical", "dev_null"),
    PGLANE_KAFKA(ConnectorRun.SYSTEM, "pglane", "kafka_json"),
    PGLANE_KAFKA_AVRO(ConnectorRun.SYSTEM_AVRO, "pglane", "kafka_avro"),
    PGLANE_NOOP(EngineRun.PGLANE, "pglane", "noop"),
    DEBEZIUM(EngineRun.DEBEZIUM, "debezium", "noop");

    private final String label;
    private final String system;
    private final String consumer;

    SourceSystem(String label, String system, String consumer) {
        this.label = label;
        this.system = system;
        this.consumer = consumer;
    }

    static SourceSystem of(String label) {
        return Arrays.stream(values())
                .filter(s -> s.label.equals(label))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no source system " + label));
    }

    /** The reader a source entry of {@code report.json} names by its {@code system} and {@code consumer}. */
    public static Optional<SourceSystem> inReport(String system, String consumer) {
        return Arrays.stream(values())
                .filter(s -> s.system.equals(system) && s.consumer.equals(consumer))
                .findFirst();
    }

    /** For people, as {@link Measurement#system()} holds it. */
    public String label() {
        return label;
    }

    String system() {
        return system;
    }

    String consumer() {
        return consumer;
    }

    boolean isPglane() {
        return system.equals("pglane");
    }

    /** Whether the client CPU is a Connect worker's JVM (with its broker), not a client process of its own. */
    boolean runsInConnect() {
        return this == PGLANE_KAFKA || this == PGLANE_KAFKA_AVRO;
    }

    /** The slot this reader catches up from in run {@code run}. */
    String slot(int run) {
        return "bench_" + name().toLowerCase() + "_" + run;
    }
}
