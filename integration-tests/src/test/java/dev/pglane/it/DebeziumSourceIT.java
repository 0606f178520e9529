package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.consistency.ConsistencySchema;
import dev.pglane.local.consistency.ConsistencyWorkload;
import dev.pglane.local.consistency.InvariantChecker;
import dev.pglane.local.consistency.InvariantMonitor;
import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.stack.ConnectRestException;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.stack.TaskMetrics;
import dev.pglane.local.stack.ValidationResult;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * pglane's sink applies the topics of Debezium's own PostgreSQL connector ({@code source.format=debezium}): Debezium
 * 3 runs in the same Connect worker with {@code provide.transaction.metadata=true}, in JSON and in Avro through a
 * real schema registry, rows keyed as Debezium keys them, deletes followed by tombstones, keys that change, TOAST
 * values left out of updates, truncates, savepoints and large transactions (the consistency workload). The sink
 * is restarted while the workload runs, so it reads again what it had not committed, and Debezium once the source is
 * idle. All along, the invariant checker reads the target: it only ever shows committed source states,
 * in source commit order. At the end the target equals the source, table by table, and stays equal when the sink
 * reads every record again from the start of the topics: the position it recorded drops them all.
 *
 * <p>The workload's {@code typed} table is left out: its values (NaN, infinities, intervals of months) go through
 * Debezium's own encodings, several of which lose them before any consumer reads them.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class DebeziumSourceIT {
    private static final String DEBEZIUM = "io.debezium.connector.postgresql.PostgresConnector";
    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration WORKLOAD = Duration.ofSeconds(240);
    private static final Duration CATCH_UP = Duration.ofSeconds(240);
    private static final int CLIENTS = 4;
    private static final int TRANSACTIONS = 1500;
    /** The workload's tables but {@code typed}, whose values go through Debezium's lossy encodings. */
    private static final List<String> TABLES = ConsistencySchema.TABLES.stream()
            .filter(table -> !table.equals("typed"))
            .toList();

    @RegisterExtension
    static final SharedWorker worker = SharedWorker.withThirdPartyPlugins();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @RegisterExtension
    static final SchemaRegistry registry = new SchemaRegistry();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"json", "avro"})
    @DisplayName("Debezium's own topics, applied by pglane's sink: only committed states in commit order, restarts"
            + " of both connectors included, and the target ends equal to the source")
    void appliesDebeziumsTopicsTransactionally(String format) throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "dbz_source_" + format;
        long seed = ConsistencySettings.seed();
        System.out.println("DebeziumSourceIT " + name + ": seed " + seed + " (-Dpglane.consistency.seed=" + seed + ")");
        ConsistencyWorkload workload = new ConsistencyWorkload(source.jdbcUrl(), name, seed);
        workload.createTables();
        SqlSession.execute(target, workload.ddl().toArray(String[]::new));
        String debezium = name + "_debezium";
        String sink = name + "_sink";
        try (InvariantMonitor monitor =
                InvariantMonitor.start(new InvariantChecker(target.jdbcUrl(), name), Duration.ofMillis(50))) {
            startDebezium(debezium, source, name, format);
            startSink(sink, target, name, format);
            ConsistencyWorkload.Running running = workload.start(CLIENTS);
            try {
                ConsistencySettings.awaitCommitted(running, TRANSACTIONS / 2, WORKLOAD);
                worker.rest().restartConnectorAndTasks(sink);
                ConsistencySettings.awaitCommitted(running, TRANSACTIONS, WORKLOAD);
            } finally {
                running.stop();
            }
            System.out.println("DebeziumSourceIT " + name + ": " + running.summary());
            long logged = ConsistencySettings.loggedTransactions(source, name);
            Waits.until(
                    "the target logs all " + logged + " transactions",
                    CATCH_UP,
                    () -> ConsistencySettings.loggedTransactions(target, name) == logged);
            // Debezium restarted once it has sent everything: in the middle of a transaction it can lose the new row
            // of a key change (docs/formats.md), which no consumer of its topics can tell
            worker.rest().restartConnectorAndTasks(debezium);
            worker.rest().awaitConnectorRunning(debezium, STARTUP);
            monitor.stop();
            System.out.println("DebeziumSourceIT " + name + ": " + monitor.describe());
            assertEquals(0, monitor.violatingChecks(), () -> "seed " + seed + ": " + monitor.describe());
            assertTrue(
                    monitor.checksWhere(n -> n > 0 && n < logged) >= 5,
                    () -> "the monitor must catch the target while it applies: " + monitor.describe());
            assertTablesEqual(source, target, name, "seed " + seed);

            // every record once more, from the start of every topic: the target's position drops them all
            deleteIfThere(sink);
            readFromTheStart(sink);
            startSink(sink, target, name, format);
            awaitReadToEnd(sink, name);
            assertTrue(TaskMetrics.value(sink, "dropped-records-total") > logged, "records read again are dropped");
            assertTablesEqual(source, target, name, "seed " + seed + ", after reading every record again");
        } finally {
            deleteIfThere(sink);
            deleteIfThere(debezium);
        }
    }

    /** Removes a connector the story may not have got to start, so that a failed start shows its own cause. */
    private static void deleteIfThere(String connector) {
        try {
            worker.rest().deleteConnector(connector);
        } catch (ConnectRestException e) {
            if (e.status() != 404) {
                throw e;
            }
        }
    }

    private static void assertTablesEqual(PostgresNode source, PostgresNode target, String schema, String when)
            throws SQLException {
        for (String table : TABLES) {
            assertEquals(
                    fingerprint(source, schema + "." + table),
                    fingerprint(target, schema + "." + table),
                    when + ": table " + table + " on the target");
        }
    }

    /** Deletes the sink's consumer group, so that the sink started next reads every topic from its start. */
    private static void readFromTheStart(String sink) {
        try (Admin admin = admin()) {
            Waits.until("the consumer group of " + sink + " is deleted", STARTUP, () -> {
                try {
                    admin.deleteConsumerGroups(List.of("connect-" + sink)).all().get();
                    return true;
                } catch (ExecutionException e) {
                    return false; // still has members for a moment after the connector is gone
                }
            });
        }
    }

    /** Waits until the sink has committed consumer offsets at the end of every partition of the run's topics. */
    private static void awaitReadToEnd(String sink, String prefix) {
        try (Admin admin = admin()) {
            Waits.until("the sink " + sink + " read every topic of " + prefix + " to its end", CATCH_UP, () -> {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("connect-" + sink)
                        .partitionsToOffsetAndMetadata()
                        .get();
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                for (TopicPartition partition : committed.keySet()) {
                    latest.put(partition, OffsetSpec.latest());
                }
                var ends = admin.listOffsets(latest).all().get();
                return !committed.isEmpty()
                        && committed.keySet().stream().anyMatch(p -> p.topic().equals(prefix + ".transaction"))
                        && committed.entrySet().stream()
                                .allMatch(e -> e.getValue().offset()
                                        >= ends.get(e.getKey()).offset());
            });
        }
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, worker.bootstrapServers()));
    }

    /** Debezium's PostgreSQL connector on the run's schema, streaming only (its snapshot rows have no transaction). */
    private static void startDebezium(String connector, PostgresNode source, String schema, String format) {
        Map<String, String> config = new HashMap<>();
        config.put("connector.class", DEBEZIUM);
        config.put("tasks.max", "1");
        config.put("plugin.name", "pgoutput");
        config.put("database.hostname", source.host());
        config.put("database.port", Integer.toString(source.port()));
        config.put("database.user", source.user());
        config.put("database.password", source.password());
        config.put("database.dbname", source.database());
        config.put("topic.prefix", schema);
        config.put("slot.name", schema);
        config.put("publication.name", schema);
        config.put("publication.autocreate.mode", "filtered");
        config.put("name", connector);
        config.put("table.include.list", schema + "\\.(" + String.join("|", TABLES) + ")");
        config.put("provide.transaction.metadata", "true");
        config.put("snapshot.mode", "no_data");
        config.put("skipped.operations", "none");
        config.putAll(converters(format));
        // Connect answers a PUT of a config Debezium finds fault with by a NullPointerException; validating first
        // names the fault
        ValidationResult validation = worker.rest().validate(DEBEZIUM, config);
        assertEquals(0, validation.errorCount(), () -> "Debezium's config: " + validation);
        worker.rest().putConnectorConfig(connector, config);
        worker.rest().awaitConnectorRunning(connector, STARTUP);
        Waits.until("Debezium's slot " + schema + " is active", STARTUP, () -> slotActive(source, schema));
    }

    private static void startSink(String connector, PostgresNode target, String schema, String format) {
        Map<String, String> config =
                ConnectorConfigs.forSink(target, worker.bootstrapServers()).load(ConnectorConfigs.SINK_JSON);
        config.put("name", connector);
        config.put("source.format", "debezium");
        config.put("source.topic.prefix", schema);
        config.put("topics.regex", schema + "\\..*");
        config.put("conflict.policy", "error");
        config.put("apply.workers", "4");
        config.put("progress.table", "public.pglane_progress");
        if (format.equals("avro")) {
            config.putAll(TopicFormat.avroInLanes(registry.url()));
        }
        worker.rest().putConnectorConfig(connector, config);
        worker.rest().awaitConnectorRunning(connector, STARTUP);
    }

    /** How Debezium writes: JSON with schemas (Kafka's JsonConverter), or Avro through the registry. */
    private static Map<String, String> converters(String format) {
        if (format.equals("json")) {
            return Map.of(
                    "key.converter", "org.apache.kafka.connect.json.JsonConverter",
                    "key.converter.schemas.enable", "true",
                    "value.converter", "org.apache.kafka.connect.json.JsonConverter",
                    "value.converter.schemas.enable", "true");
        }
        Map<String, String> avro = new HashMap<>();
        for (String side : List.of("key", "value")) {
            String prefix = side + ".converter";
            avro.put(prefix, "io.apicurio.registry.utils.converter.AvroConverter");
            avro.put(prefix + ".apicurio.registry.url", registry.url());
            avro.put(prefix + ".apicurio.registry.auto-register", "true");
            avro.put(prefix + ".apicurio.registry.as-confluent", "true");
            avro.put(prefix + ".apicurio.registry.use-id", "contentId");
            avro.put(prefix + ".apicurio.registry.headers.enabled", "false");
        }
        return avro;
    }

    private static boolean slotActive(PostgresNode source, String slot) throws SQLException {
        try (SqlSession session = SqlSession.open(source)) {
            return Boolean.TRUE.equals(
                    session.queryValue("SELECT active FROM pg_replication_slots WHERE slot_name = ?", slot));
        }
    }

    /** The table's rows as text, sorted, with their count: equal on both sides when the rows are. */
    private static String fingerprint(PostgresNode node, String table) throws SQLException {
        try (SqlSession session = SqlSession.open(node)) {
            return String.valueOf(session.queryValue("SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|'"
                    + " ORDER BY t::text)), '') FROM " + table + " t"));
        }
    }
}
