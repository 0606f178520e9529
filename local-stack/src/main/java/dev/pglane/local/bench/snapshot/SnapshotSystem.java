package dev.pglane.local.bench.snapshot;

import java.util.Arrays;
import java.util.Optional;

/** The systems of the snapshot stage, in the order reports list them, with their names in {@code report.json}. */
public enum SnapshotSystem {
    /** {@code COPY TO STDOUT} piped into {@code COPY FROM STDIN}, one pipe per table: the physical reference. */
    COPY_PIPE("copy_pipe", "COPY TO STDOUT piped into COPY FROM STDIN (one pipe per table)", "pipes"),
    /** Debezium 3.6.1.Final's initial snapshot in Debezium's engine, into a consumer that only counts. */
    DEBEZIUM("debezium", "Debezium 3.6.1.Final initial snapshot -> no-op (engine)", "snapshot.max.threads"),
    /** pglane's source, {@code snapshot.mode=initial_only}, in the same engine and consumer as Debezium's. */
    PGLANE_ENGINE("pglane_engine", "pglane source snapshot -> no-op (engine)", "snapshot.threads"),
    /** pglane's source, {@code snapshot.mode=initial_only}, into Kafka. */
    PGLANE_KAFKA("pglane_kafka", "pglane source snapshot -> Kafka (JSON)", "snapshot.threads"),
    /** pglane's source and sink, into an empty target. */
    PGLANE_END_TO_END("pglane_e2e", "pglane source -> Kafka -> sink, empty target", "snapshot.threads"),
    /** The same under pgbench's load, the slot's retained WAL sampled every second. */
    PGLANE_UNDER_LOAD("pglane_e2e_load", "pglane end to end under pgbench -R", "snapshot.threads");

    private final String key;
    private final String description;
    private final String threadsMeaning;

    SnapshotSystem(String key, String description, String threadsMeaning) {
        this.key = key;
        this.description = description;
        this.threadsMeaning = threadsMeaning;
    }

    /** The system a snapshot entry of {@code report.json} names. */
    public static Optional<SnapshotSystem> ofKey(String key) {
        return Arrays.stream(values()).filter(s -> s.key.equals(key)).findFirst();
    }

    /** The name in {@code report.json}. */
    public String key() {
        return key;
    }

    public String description() {
        return description;
    }

    /** For people: the system with what its thread count means, e.g. {@code ... (snapshot.threads 2)}. */
    public String label(int threads) {
        return description + " (" + threadsMeaning + " " + threads + ")";
    }
}
