package dev.pglane.it;

import static dev.pglane.it.SinkReplicationIT.assertEqual;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.stack.RegistryNode;
import dev.pglane.local.stack.TaskMetrics;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The whole pipeline in Avro through a real schema registry (Apicurio Registry 3 as its own process, Confluent's
 * framing, BACKWARD compatibility): the converter the plugins ship writes and reads every record, a plain Kafka
 * consumer with the registry's deserializer reads the topics, and a registry that goes away for a while costs
 * nothing.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class AvroPipelineIT {
    private static final Duration CATCH_UP = Duration.ofSeconds(180);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @RegisterExtension
    static final SchemaRegistry schemaRegistry = new SchemaRegistry();

    private static RegistryNode registry;

    @BeforeAll
    static void prepareRegistry() throws Exception {
        registry = schemaRegistry.node();
        // start() returns only once a registration and a lookup went through (the warm-up), not at health alone
        HttpResponse<String> warmup = http(HttpRequest.newBuilder(URI.create(
                registry.apicurioV2Url() + "/groups/" + RegistryNode.WARMUP_GROUP + "/artifacts/warmup/meta")));
        assertEquals(200, warmup.statusCode(), warmup.body());
        HttpResponse<String> set = http(HttpRequest.newBuilder(URI.create(registry.ccompatUrl() + "/config"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"BACKWARD\"}")));
        assertEquals(200, set.statusCode(), set.body());
    }

    /** The key and value converter settings of an Avro example config, filled in for this stack's registry. */
    private static Map<String, String> converters(PostgresNode node, String example) {
        Map<String, String> config = ConnectorConfigs.forStack(node, node, worker.bootstrapServers())
                .with("PGLANE_REGISTRY_URL", registry.apicurioV2Url())
                .load(example);
        config.keySet().removeIf(key -> !key.startsWith("key.converter") && !key.startsWith("value.converter"));
        return config;
    }

    /** Where the records' Avro is written and read. */
    enum AvroIn {
        /** By the worker's converters, on the connectors' task threads (payload.format=connect). */
        CONVERTERS,
        /** By the connectors' own threads, the source's decoder lanes and the sink's decode threads. */
        LANES
    }

    private static Map<String, String> sourceAvro(PostgresNode source, AvroIn in, String... more) {
        return with(
                in == AvroIn.LANES
                        ? TopicFormat.avroInLanes(registry.apicurioV2Url())
                        : converters(source, ConnectorConfigs.SOURCE_AVRO),
                more);
    }

    private static Map<String, String> sinkAvro(PostgresNode target, AvroIn in, String... more) {
        if (in == AvroIn.LANES) {
            return with(TopicFormat.avroInLanes(registry.apicurioV2Url()), more);
        }
        // the JSON example the run starts from reads bytes itself (payload.format=json)
        return with(with(converters(target, ConnectorConfigs.SINK_AVRO), "payload.format", "connect"), more);
    }

    private static Map<String, String> with(Map<String, String> base, String... keysAndValues) {
        Map<String, String> merged = new HashMap<>(base);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            merged.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return merged;
    }

    @ParameterizedTest(name = "Avro written by the {0}")
    @EnumSource(AvroIn.class)
    @DisplayName("every type family, TOAST, TRUNCATE, a streamed transaction and a column added mid-stream, in Avro:"
            + " target == source, and a plain consumer with the registry's deserializer reads the topics")
    void thePipelineInAvro(AvroIn in) throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "avro_" + in.name().toLowerCase(Locale.ROOT);
        List<TypeCase> cases = TypeCases.all();
        SinkReplicationIT.createTypes(source);
        SinkReplicationIT.createTypes(target);
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + name,
                TypeCases.createTable(name + ".every_type", cases),
                "CREATE TABLE " + name + ".docs (id int PRIMARY KEY, note text, body text)",
                "CREATE TABLE " + name + ".ledger (id int PRIMARY KEY, v text)",
                // transactions over 64 kB are streamed before they commit
                "ALTER SYSTEM SET logical_decoding_work_mem = '64kB'",
                "SELECT pg_reload_conf()");
        SqlSession.execute(target, "CREATE SCHEMA " + name);
        try (SinkConnectorRun run = SinkConnectorRun.start(
                worker,
                source,
                target,
                name,
                sourceAvro(source, in, "streaming.mode", "on"),
                sinkAvro(target, in, "auto.evolve", "true"))) {
            SinkReplicationIT.writeTypeRows(source, name, cases);
            SqlSession.execute(
                    source,
                    "INSERT INTO " + name + ".docs VALUES (1, 'first', repeat('toasted ', 40000))",
                    // body is TOASTed and unchanged: the update leaves it out of its record
                    "UPDATE " + name + ".docs SET note = 'second' WHERE id = 1",
                    "INSERT INTO " + name + ".ledger SELECT g, 'row ' || g FROM generate_series(1, 50) g",
                    "TRUNCATE " + name + ".ledger",
                    // one transaction of ~400 kB, streamed
                    "INSERT INTO " + name + ".ledger SELECT g, repeat('s', 200) FROM generate_series(100, 2100) g",
                    // a new column: a new schema version, which BACKWARD compatibility accepts
                    "ALTER TABLE " + name + ".docs ADD COLUMN extra int DEFAULT 7",
                    "INSERT INTO " + name + ".docs VALUES (2, 'after the DDL', 'short', 8)",
                    "UPDATE " + name + ".docs SET extra = 9 WHERE id = 1");

            run.awaitCatchUp(CATCH_UP);
            assertEqual(run.compare());

            String docsTopic = name + "." + name + ".docs";
            JsonNode versions = JSON.readTree(http(HttpRequest.newBuilder(
                            URI.create(registry.ccompatUrl() + "/subjects/" + docsTopic + "-value/versions")))
                    .body());
            assertTrue(versions.size() >= 2, "the added column registered a new version: " + versions);
            assertPlainConsumerReads(docsTopic, name + ".transactions");
        } finally {
            SqlSession.execute(source, "ALTER SYSTEM RESET logical_decoding_work_mem", "SELECT pg_reload_conf()");
        }
    }

    /** Kafka's consumer with Apicurio's Avro deserializer, Confluent framing: no pglane code involved. */
    private static void assertPlainConsumerReads(String changeTopic, String markerTopic) {
        Map<String, Object> config = new HashMap<>(TopicFormat.avroSettings(registry.apicurioV2Url()));
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, worker.bootstrapServers());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<GenericRecord> changes = new ArrayList<>();
        List<GenericRecord> markers = new ArrayList<>();
        // deserializers handed over as objects are not configured by the consumer
        AvroKafkaDeserializer<GenericRecord> keys = new AvroKafkaDeserializer<>();
        keys.configure(config, true);
        AvroKafkaDeserializer<GenericRecord> values = new AvroKafkaDeserializer<>();
        values.configure(config, false);
        try (KafkaConsumer<GenericRecord, GenericRecord> consumer = new KafkaConsumer<>(config, keys, values)) {
            List<TopicPartition> partitions =
                    List.of(new TopicPartition(changeTopic, 0), new TopicPartition(markerTopic, 0));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Waits.until("the plain consumer read the docs changes and the markers", Duration.ofSeconds(60), () -> {
                for (ConsumerRecord<GenericRecord, GenericRecord> record : consumer.poll(Duration.ofMillis(500))) {
                    GenericRecord value = record.value();
                    (record.topic().equals(markerTopic) ? markers : changes).add(value);
                }
                return changes.size() >= 4 && markers.stream().anyMatch(m -> "END".equals(text(m, "status")));
            });
        }
        GenericRecord first = changes.get(0);
        assertEquals("c", text(first, "op"));
        assertEquals(1, ((GenericRecord) first.get("after")).get("id"));
        assertEquals("docs", text((GenericRecord) first.get("source"), "table"));
        assertTrue(
                changes.stream()
                        .anyMatch(c ->
                                ((GenericRecord) c.get("after")).getSchema().getField("extra") != null),
                "a change written after the DDL has the new column");
    }

    private static String text(GenericRecord record, String field) {
        Object value = record.get(field);
        return value == null ? null : value.toString();
    }

    @Test
    @DisplayName(
            "the registry goes away under load until the source has read a column added meanwhile, Avro written and read by the"
                    + " connectors' own threads: nothing is lost, nothing fails")
    void aRegistryOutageCostsNothing() throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "avro_outage";
        SqlSession.execute(source, "CREATE SCHEMA " + name, "CREATE TABLE " + name + ".t (id int PRIMARY KEY, v text)");
        SqlSession.execute(target, "CREATE SCHEMA " + name);
        try (SinkConnectorRun run = SinkConnectorRun.start(
                        worker,
                        source,
                        target,
                        name,
                        sourceAvro(source, AvroIn.LANES),
                        sinkAvro(target, AvroIn.LANES, "auto.evolve", "true"));
                SqlSession session = SqlSession.open(source)) {
            int id = 0;
            for (int phase = 0; phase < 3; phase++) {
                if (phase == 1) {
                    run.awaitCatchUp(CATCH_UP); // every schema so far registered and cached before the registry goes
                    registry.stop();
                }
                for (int i = 0; i < 200; i++, id++) {
                    session.exec("INSERT INTO " + name + ".t (id, v) VALUES (?, ?)", id, "phase " + phase);
                    if (id % 3 == 0) {
                        session.exec("UPDATE " + name + ".t SET v = 'updated' WHERE id = ?", id / 2);
                    }
                    session.commit();
                }
                if (phase == 1) {
                    // a new schema version while the registry is away: the source cannot register it, waits and
                    // reconnects until it can; the sink waits for it the same way
                    session.exec("ALTER TABLE " + name + ".t ADD COLUMN w int");
                    session.commit();
                    session.exec("INSERT INTO " + name + ".t (id, v, w) VALUES (?, 'new column', 2)", id++);
                    session.commit();
                    long written = ((Number) session.queryValue(
                                    "SELECT (pg_catalog.pg_current_wal_lsn() - '0/0'::pg_catalog.pg_lsn)::bigint"))
                            .longValue();
                    session.commit();
                    // the registry comes back only once the source has read the change it needs the registry for
                    Waits.until(
                            "the source read the change of the new schema",
                            Duration.ofSeconds(60),
                            () -> TaskMetrics.value(name, "received-lsn") >= written);
                    registry.start();
                }
            }
            run.awaitCatchUp(CATCH_UP);
            assertEqual(run.compare());
            assertTrue(worker.rest().status(run.sinkName()).isRunning(), "the sink never failed");
            assertTrue(worker.rest().status(name).isRunning(), "the source never failed");
        }
    }

    private static HttpResponse<String> http(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
