package dev.pglane.local.bench.sustained;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** A system that bench-sustained measures: what replicates the source's changes onto the target. */
public enum SustainedSystem {
    PGLANE_JSON("pglane-json", "pglane (JSON)"),
    PGLANE_AVRO("pglane-avro", "pglane (Avro)"),
    /** pglane in Avro with its sink split into table groups, one sink connector each ({@link PglaneGroups}). */
    PGLANE_AVRO_2_GROUPS("pglane-avro-2-groups", "pglane (Avro), 2 table groups"),
    PGLANE_AVRO_4_GROUPS("pglane-avro-4-groups", "pglane (Avro), 4 table groups"),
    /**
     * pglane in Avro on a worker with exactly-once support (KIP-618), each database transaction one Kafka transaction
     * ({@code transaction.boundary=connector}), the sink reading committed records only.
     */
    PGLANE_AVRO_EXACTLY_ONCE("pglane-avro-eos", "pglane (Avro), exactly-once topics"),
    SUBSCRIBER("subscriber", "PostgreSQL subscriber"),
    DEBEZIUM("debezium", "Debezium source + JDBC sink");

    private final String option;
    private final String label;

    SustainedSystem(String option, String label) {
        this.option = option;
        this.label = label;
    }

    /** As on the command line and in report.json. */
    public String option() {
        return option;
    }

    /** As in the report's tables. */
    public String label() {
        return label;
    }

    /** A comma-separated list of {@link #option()}s, or {@code all}; in the list's order, without repeats. */
    public static List<SustainedSystem> parseList(String value) {
        if (value.trim().equals("all")) {
            return List.of(values());
        }
        Set<SustainedSystem> systems = new LinkedHashSet<>();
        for (String word : value.split(",")) {
            systems.add(of(word.trim()));
        }
        if (systems.isEmpty()) {
            throw new IllegalArgumentException("--systems names no system");
        }
        return new ArrayList<>(systems);
    }

    public static SustainedSystem of(String option) {
        for (SustainedSystem system : values()) {
            if (system.option.equals(option)) {
                return system;
            }
        }
        throw new IllegalArgumentException(
                "--systems takes all or a list of pglane-json, pglane-avro, pglane-avro-2-groups,"
                        + " pglane-avro-4-groups, pglane-avro-eos, subscriber, debezium: " + option);
    }

    boolean isPglane() {
        return this != SUBSCRIBER && this != DEBEZIUM;
    }

    /** Whether pglane writes and reads Avro through the registry. */
    boolean isAvro() {
        return this == PGLANE_AVRO
                || this == PGLANE_AVRO_2_GROUPS
                || this == PGLANE_AVRO_4_GROUPS
                || this == PGLANE_AVRO_EXACTLY_ONCE;
    }

    /** How many sink connectors apply the source's tables: 1 but for the table-group systems. */
    int sinkGroups() {
        return switch (this) {
            case PGLANE_AVRO_2_GROUPS -> 2;
            case PGLANE_AVRO_4_GROUPS -> 4;
            default -> 1;
        };
    }
}
