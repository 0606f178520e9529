package dev.pglane.local.bench.sustained;

import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.PostgresNode;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * What a Kafka user would run instead of pglane: Debezium's PostgreSQL source and Debezium's JDBC sink, both as
 * connectors in the Connect worker, configured as their documentation shows, with Kafka's JsonConverter (schemas on)
 * between them. The source streams from the shared publication into a slot it creates itself ({@code snapshot.mode
 * no_data}: the target database already holds the rows); the sink upserts by the record key, with deletes on, into
 * tables named as the source's ({@code ${source.table}}). Their topics are created before them, one partition each,
 * so the sink reads every table from its first record.
 */
final class DebeziumReplication implements Replication {
    static final String SOURCE_CLASS = "io.debezium.connector.postgresql.PostgresConnector";
    static final String SINK_CLASS = "io.debezium.connector.jdbc.JdbcSinkConnector";
    /** The releases local-stack's pom unpacks into the third-party plugin path. */
    static final String SOURCE_RELEASE = "3.6.1.Final";

    static final String SINK_RELEASE = "3.5.0.Final";
    private static final String JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";
    private static final List<String> TABLES =
            List.of("pgbench_accounts", "pgbench_branches", "pgbench_tellers", "pgbench_history", LagProbe.TABLE);
    private static final Duration STREAMING = Duration.ofSeconds(120);

    private final PostgresNode source;
    private final ConnectRestClient rest;
    private final String bootstrapServers;
    private final String prefix;
    private final String sinkName;

    private DebeziumReplication(PostgresNode source, ConnectRestClient rest, String bootstrapServers, String prefix) {
        this.source = source;
        this.rest = rest;
        this.bootstrapServers = bootstrapServers;
        this.prefix = prefix;
        this.sinkName = prefix + "_sink";
    }

    /** @param name names the slot, the source connector and its topics' prefix */
    static DebeziumReplication start(
            PostgresNode source,
            PostgresNode target,
            ConnectRestClient rest,
            String bootstrapServers,
            String name,
            String database)
            throws Exception {
        DebeziumReplication replication = new DebeziumReplication(source, rest, bootstrapServers, name);
        try {
            replication.createTopics();
            rest.putConnectorConfig(name, replication.sourceConfig());
            rest.putConnectorConfig(replication.sinkName, replication.sinkConfig(target, database));
            // the source creates its slot as its task starts: changes committed before are not its to stream
            Slots.awaitActive(source, name, STREAMING);
        } catch (Exception e) {
            replication.close();
            throw e;
        }
        return replication;
    }

    private void createTopics() throws InterruptedException, ExecutionException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(TABLES.stream()
                            .map(table -> new NewTopic(topic(table), 1, (short) 1))
                            .toList())
                    .all()
                    .get();
        }
    }

    private String topic(String table) {
        return prefix + ".public." + table;
    }

    private Map<String, String> sourceConfig() {
        Map<String, String> config = new HashMap<>(converters());
        config.put("connector.class", SOURCE_CLASS);
        config.put("tasks.max", "1");
        config.put("database.hostname", source.host());
        config.put("database.port", Integer.toString(source.port()));
        config.put("database.user", source.user());
        config.put("database.password", source.password());
        config.put("database.dbname", source.database());
        config.put("topic.prefix", prefix);
        config.put("plugin.name", "pgoutput");
        config.put("slot.name", prefix);
        config.put("publication.name", SustainedDatabase.PUBLICATION);
        config.put("publication.autocreate.mode", "disabled");
        config.put("snapshot.mode", "no_data");
        return config;
    }

    private Map<String, String> sinkConfig(PostgresNode target, String database) {
        Map<String, String> config = new HashMap<>(converters());
        config.put("connector.class", SINK_CLASS);
        config.put("tasks.max", "1");
        config.put("topics", TABLES.stream().map(this::topic).collect(Collectors.joining(",")));
        config.put("connection.url", target.jdbcUrlOf(database));
        config.put("connection.username", target.user());
        config.put("connection.password", target.password());
        config.put("insert.mode", "upsert");
        config.put("delete.enabled", "true");
        config.put("primary.key.mode", "record_key");
        config.put("collection.name.format", "${source.table}");
        return config;
    }

    private static Map<String, String> converters() {
        return Map.of(
                "key.converter",
                JSON_CONVERTER,
                "value.converter",
                JSON_CONVERTER,
                "key.converter.schemas.enable",
                "true",
                "value.converter.schemas.enable",
                "true");
    }

    @Override
    public void checkHealthy() {
        Connectors.checkRunning(rest, prefix);
        Connectors.checkRunning(rest, sinkName);
    }

    @Override
    public void close() throws Exception {
        Connectors.remove(rest, sinkName);
        Connectors.remove(rest, prefix);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.deleteTopics(TABLES.stream().map(this::topic).toList()).all().get();
        }
        Slots.awaitReleased(source, prefix, STREAMING);
        Slots.drop(source, prefix);
    }
}
