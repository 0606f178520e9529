package dev.pglane.local.bench.sustained;

import dev.pglane.local.bench.BenchFormat;
import dev.pglane.local.stack.ConnectNode;
import dev.pglane.local.stack.KafkaNode;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.RegistryNode;
import java.util.HashMap;
import java.util.Map;

/** Starts each system on the bench's servers, broker, worker and registry (the last three null when not needed). */
final class Replications {
    /** The README's exactly-once settings of the source. */
    private static final Map<String, String> EXACTLY_ONCE_SOURCE =
            Map.of("transaction.boundary", "connector", "streaming.mode", "off", "exactly.once.support", "required");

    private final PostgresNode source;
    private final PostgresNode target;
    private final KafkaNode kafka;
    private final ConnectNode connect;
    /** A worker with exactly-once support for source connectors; null when no system needs one. */
    private final ConnectNode exactlyOnce;

    private final RegistryNode registry;

    Replications(
            PostgresNode source,
            PostgresNode target,
            KafkaNode kafka,
            ConnectNode connect,
            ConnectNode exactlyOnce,
            RegistryNode registry) {
        this.source = source;
        this.target = target;
        this.kafka = kafka;
        this.connect = connect;
        this.exactlyOnce = exactlyOnce;
        this.registry = registry;
    }

    /** {@code system} replicating the source into {@code database} of the target, once it returns. */
    Replication start(SustainedSystem system, int run, String database) throws Exception {
        String name = "sus_" + system.option().replace('-', '_') + "_" + run;
        return switch (system) {
            case PGLANE_JSON ->
                PglaneReplication.start(
                        source,
                        target,
                        connect.rest(),
                        kafka.bootstrapServers(),
                        Map.of(),
                        Map.of(),
                        name,
                        database,
                        PglaneGroups.of(1));
            case PGLANE_AVRO, PGLANE_AVRO_2_GROUPS, PGLANE_AVRO_4_GROUPS -> {
                Map<String, String> avro = BenchFormat.AVRO.settings(Map.of(), registry);
                yield PglaneReplication.start(
                        source,
                        target,
                        connect.rest(),
                        kafka.bootstrapServers(),
                        avro,
                        avro,
                        name,
                        database,
                        PglaneGroups.of(system.sinkGroups()));
            }
            case PGLANE_AVRO_EXACTLY_ONCE -> {
                Map<String, String> avro = BenchFormat.AVRO.settings(Map.of(), registry);
                Map<String, String> sourceSettings = new HashMap<>(avro);
                sourceSettings.putAll(EXACTLY_ONCE_SOURCE);
                Map<String, String> sinkSettings = new HashMap<>(avro);
                sinkSettings.put("consumer.override.isolation.level", "read_committed");
                yield PglaneReplication.start(
                        source,
                        target,
                        exactlyOnce.rest(),
                        kafka.bootstrapServers(),
                        sourceSettings,
                        sinkSettings,
                        name,
                        database,
                        PglaneGroups.of(1));
            }
            case SUBSCRIBER -> SubscriberReplication.start(source, target, database);
            case DEBEZIUM ->
                DebeziumReplication.start(source, target, connect.rest(), kafka.bootstrapServers(), name, database);
        };
    }
}
