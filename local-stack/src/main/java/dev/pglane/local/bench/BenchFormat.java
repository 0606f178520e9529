package dev.pglane.local.bench;

import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.stack.RegistryNode;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What pglane's connectors write into Kafka and read from it in a benchmark ({@code --format}): JSON with schemas from
 * the example configs' converter, or Avro written and read in the connectors' own threads through a schema registry
 * the benchmark starts.
 */
public enum BenchFormat {
    JSON("json", SourceSystem.PGLANE_KAFKA),
    AVRO("avro", SourceSystem.PGLANE_KAFKA_AVRO);

    private final String option;
    private final SourceSystem sourceSystem;

    BenchFormat(String option, SourceSystem sourceSystem) {
        this.option = option;
        this.sourceSystem = sourceSystem;
    }

    /** {@code json}, {@code avro} or {@code both} (JSON first). */
    static Set<BenchFormat> parse(String option) {
        return option.equals("both")
                ? new LinkedHashSet<>(List.of(JSON, AVRO))
                : Set.of(one(option, "json, avro or both"));
    }

    /** {@code json} or {@code avro}, for a benchmark that runs one format. */
    public static BenchFormat one(String option) {
        return one(option, "json or avro");
    }

    private static BenchFormat one(String option, String allowed) {
        for (BenchFormat format : values()) {
            if (format.option.equals(option)) {
                return format;
            }
        }
        throw new IllegalArgumentException("--format must be " + allowed + ": " + option);
    }

    /** As on the command line; names topics, slots and report entries. */
    public String option() {
        return option;
    }

    /** The source stage's system of pglane into Kafka in this format. */
    SourceSystem sourceSystem() {
        return sourceSystem;
    }

    /**
     * The settings that make a connector, source or sink, use this format, with {@code changes} (the command line's)
     * over them.
     */
    public Map<String, String> settings(Map<String, String> changes, RegistryNode registry) {
        Map<String, String> settings =
                this == AVRO ? new HashMap<>(TopicFormat.avroInLanes(registry.apicurioV2Url())) : new HashMap<>();
        settings.putAll(changes);
        return settings;
    }

    static boolean anyAvro(Set<BenchFormat> formats) {
        return formats.contains(AVRO);
    }
}
