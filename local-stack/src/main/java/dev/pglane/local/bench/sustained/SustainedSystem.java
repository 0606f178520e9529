package dev.pglane.local.bench.sustained;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** A system that bench-sustained measures: what replicates the source's changes onto the target. */
public enum SustainedSystem {
    PGLANE_JSON("pglane-json", "pglane (JSON)"),
    PGLANE_AVRO("pglane-avro", "pglane (Avro)"),
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
                "--systems takes all or a list of pglane-json, pglane-avro, subscriber, debezium: " + option);
    }

    boolean isPglane() {
        return this == PGLANE_JSON || this == PGLANE_AVRO;
    }
}
