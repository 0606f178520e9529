package dev.pglane.it;

import static dev.pglane.it.SinkReplicationIT.assertEqual;
import static dev.pglane.it.SinkReplicationIT.assertProgressAtLastTransaction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.stack.ConnectRestException;
import dev.pglane.local.stack.ConnectorStatus;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.workload.ChangeWorkload;
import dev.pglane.local.workload.WorkloadSchema;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Input the sink cannot use: a record in a change topic that is not a pglane change (written there by someone
 * else), a pglane change altered to reach another table, a system catalog or the DDL, and a target table that does
 * not exist while {@code auto.create} is off. Either goes to the dead-letter
 * queue when one is configured, or stops the task with a message that names it; once the cause is removed, the
 * sink resumes and the target equals the source, nothing lost and nothing applied twice. On the default major only:
 * nothing here depends on the server version.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class BadInputIT {
    private static final Duration CATCH_UP = Duration.ofSeconds(120);
    private static final Duration FAILURE = Duration.ofSeconds(60);
    private static final PostgresVersion VERSION = PostgresVersion.fromProperty();

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    /** Bytes someone else wrote into a change topic: garbage, or a genuine change of the topic altered. */
    enum Poison {
        /** Not JSON at all: the sink's decoding (payload.format=json) refuses it, naming the record. */
        NOT_JSON(genuine -> "\u0000\u0001 not json {".getBytes(StandardCharsets.UTF_8)),
        /** Valid JSON with a schema, but not a pglane change envelope: the sink refuses it. */
        NOT_AN_ENVELOPE(
                genuine -> "{\"schema\":{\"type\":\"string\"},\"payload\":\"hello\"}".getBytes(StandardCharsets.UTF_8)),
        /** A pglane change on the ledger's topic that names another table: refused, its table untouched. */
        ANOTHER_TABLE(genuine -> Forgery.source(genuine, null, "counters")),
        /** A pglane change that names a system catalog: refused, nothing written there. */
        SYSTEM_CATALOG(genuine -> Forgery.source(genuine, "pg_catalog", "pg_authid")),
        /** A pglane change whose column claims a type text that is SQL: refused before any DDL. */
        SQL_AS_TYPE(genuine -> Forgery.columnType(genuine, "integer); DROP TABLE " + Forgery.VICTIM + "; --"));

        final UnaryOperator<byte[]> forge;

        Poison(UnaryOperator<byte[]> forge) {
            this.forge = forge;
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Poison.class)
    @DisplayName("a poison record with a dead-letter queue: reported there with its position, apply goes on")
    void poisonToDeadLetterQueue(Poison poison) throws Exception {
        String name = "dlq_" + poison.name().toLowerCase();
        String dlq = name + "_dlq";
        PostgresNode source = servers.of(VERSION);
        ChangeWorkload workload = new ChangeWorkload(source.jdbcUrl(), new WorkloadSchema(name));
        workload.createTables();

        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, servers.targetOf(VERSION), name, deadLetterQueue(dlq))) {
            workload.runTransactions(2, 40);
            run.awaitCatchUp(CATCH_UP);
            Forgery.createVictim(servers.targetOf(VERSION));
            byte[] value = poison.forge.apply(firstRecordOf(ledgerTopic(name)));
            RecordMetadata poisoned = injectPoison(ledgerTopic(name), value);
            moreLedgerRows(source, name);

            CatchUp.Result caughtUp = run.awaitCatchUp(CATCH_UP);

            assertEqual(run.compare());
            assertProgressAtLastTransaction(run, caughtUp);
            List<DeadLetter> letters = DeadLetter.readAll(worker.bootstrapServers(), dlq, 1);
            assertEquals(1, letters.size(), () -> "dead letters: " + letters);
            DeadLetter letter = letters.get(0);
            assertEquals(poisoned.topic(), letter.topic(), letter::toString);
            assertEquals(poisoned.partition(), letter.partition(), letter::toString);
            assertEquals(poisoned.offset(), letter.offset(), letter::toString);
            assertTrue(letter.value().length == value.length, letter::toString);
            Forgery.assertVictimUntouched(servers.targetOf(VERSION));
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Poison.class)
    @DisplayName(
            "a poison record without a dead-letter queue stops the task; with a dead-letter queue added, it resumes"
                    + " without loss")
    void poisonStopsTheTask(Poison poison) throws Exception {
        String name = "stop_" + poison.name().toLowerCase();
        PostgresNode source = servers.of(VERSION);
        ChangeWorkload workload = new ChangeWorkload(source.jdbcUrl(), new WorkloadSchema(name));
        workload.createTables();

        try (SinkConnectorRun run = SinkConnectorRun.start(worker, source, servers.targetOf(VERSION), name, Map.of())) {
            workload.runTransactions(2, 40);
            run.awaitCatchUp(CATCH_UP);
            Forgery.createVictim(servers.targetOf(VERSION));
            RecordMetadata poisoned =
                    injectPoison(ledgerTopic(name), poison.forge.apply(firstRecordOf(ledgerTopic(name))));
            moreLedgerRows(source, name);

            String trace = awaitTaskFailure(run.sinkName());
            String record = "record " + poisoned.topic() + "-" + poisoned.partition() + "@" + poisoned.offset();
            String named = switch (poison) {
                case NOT_JSON -> record + " is not a pglane change: Converting byte[] to Kafka Connect data failed";
                case NOT_AN_ENVELOPE -> record + " is not a pglane change";
                case ANOTHER_TABLE ->
                    record + " is refused: it came on topic " + poisoned.topic() + " but names source table " + name
                            + ".counters";
                case SYSTEM_CATALOG ->
                    record + " is refused: it came on topic " + poisoned.topic()
                            + " but names source table pg_catalog.pg_authid";
                case SQL_AS_TYPE -> record + " is refused: column ";
            };
            assertTrue(trace.contains(named), () -> "the failure should say " + named + ":\n" + trace);
            Forgery.assertVictimUntouched(servers.targetOf(VERSION));

            // the user's fix: a dead-letter queue for records like it, then the failed task restarted
            Map<String, String> config = new HashMap<>(worker.rest().connectorConfig(run.sinkName()));
            config.putAll(deadLetterQueue(name + "_dlq"));
            worker.rest().putConnectorConfig(run.sinkName(), config);
            awaitTaskRunningAgain(run.sinkName());
            CatchUp.Result caughtUp = run.awaitCatchUp(CATCH_UP);

            assertEqual(run.compare());
            assertProgressAtLastTransaction(run, caughtUp);
            assertEquals(
                    1,
                    DeadLetter.readAll(worker.bootstrapServers(), name + "_dlq", 1)
                            .size());
        }
    }

    @Test
    @DisplayName("a missing target table with auto.create off stops the task naming it; once created, no loss")
    void missingTargetTable() throws Exception {
        String name = "missing_table";
        PostgresNode source = servers.of(VERSION);
        PostgresNode target = servers.targetOf(VERSION);
        String present = "CREATE TABLE " + name + ".present (id int PRIMARY KEY, v text)";
        String absent = "CREATE TABLE " + name + ".absent (id int PRIMARY KEY, v text)";
        SqlSession.execute(source, "CREATE SCHEMA " + name, present, absent);
        SqlSession.execute(target, "CREATE SCHEMA " + name, present);

        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, target, name, Map.of("auto.create", "false"))) {
            SqlSession.execute(
                    source, "INSERT INTO " + name + ".present SELECT g, 'before' FROM generate_series(1, 50) g");
            SqlSession.execute(
                    source,
                    "BEGIN",
                    "INSERT INTO " + name + ".present VALUES (51, 'with the absent table')",
                    "INSERT INTO " + name + ".absent SELECT g, 'row ' || g FROM generate_series(1, 20) g",
                    "COMMIT");
            SqlSession.execute(source, "UPDATE " + name + ".absent SET v = 'changed' WHERE id <= 5");

            String trace = awaitTaskFailure(run.sinkName());
            String expected = "Target table " + name + ".absent does not exist";
            assertTrue(trace.contains(expected), () -> "the failure should say \"" + expected + "\":\n" + trace);
            assertTrue(trace.contains("auto.create=true"), trace);

            SqlSession.execute(target, absent);
            awaitTaskRunningAgain(run.sinkName());
            CatchUp.Result caughtUp = run.awaitCatchUp(CATCH_UP);

            assertEqual(run.compare());
            assertProgressAtLastTransaction(run, caughtUp);
        }
    }

    @Test
    @DisplayName("a partition added to the marker topic stops the sink at the rebalance, before it reads a marker out"
            + " of commit order, and the source at the first marker stored there; both name the topic")
    void markerTopicGainsAPartition() throws Exception {
        String name = "marker_partitions";
        PostgresNode source = servers.of(VERSION);
        ChangeWorkload workload = new ChangeWorkload(source.jdbcUrl(), new WorkloadSchema(name));
        workload.createTables();

        // the source's producer looks for new partitions every second, not every 5 minutes
        Map<String, String> sourceChanges = Map.of("producer.override.metadata.max.age.ms", "1000");
        try (SinkConnectorRun run = SinkConnectorRun.start(
                        worker, source, servers.targetOf(VERSION), name, sourceChanges, Map.of());
                Admin admin = Admin.create(Map.of("bootstrap.servers", worker.bootstrapServers()))) {
            workload.runTransactions(2, 40);
            run.awaitCatchUp(CATCH_UP);
            String markers = name + ".transactions";
            admin.createPartitions(Map.of(markers, NewPartitions.increaseTo(2)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            moreLedgerRows(source, name);

            String sinkTrace = awaitTaskFailure(run.sinkName());
            String sinkSays = "The marker topic " + markers + " has more than one partition (also 1)";
            assertTrue(sinkTrace.contains(sinkSays), () -> "the sink should say \"" + sinkSays + "\":\n" + sinkTrace);
            // transactions keyed by xid spread over both partitions once the producer has seen the second
            Waits.until("the source task fails", FAILURE, () -> {
                moreLedgerRows(source, name);
                return worker.rest().status(name).tasks().stream()
                        .anyMatch(task -> ConnectorStatus.FAILED.equals(task.state()));
            });
            String sourceTrace = awaitTaskFailure(name);
            String sourceSays = "of the marker topic " + markers + ", which must have one partition";
            assertTrue(
                    sourceTrace.contains(sourceSays),
                    () -> "the source should say \"" + sourceSays + "\":\n" + sourceTrace);
        }
    }

    /** Transactions after the poison record, on the topic it is in. */
    private static void moreLedgerRows(PostgresNode source, String name) throws Exception {
        for (int i = 0; i < 5; i++) {
            SqlSession.execute(
                    source,
                    "INSERT INTO " + name + ".ledger (client, amount) SELECT 99, g" + " FROM generate_series(1, 20) g");
        }
    }

    private static Map<String, String> deadLetterQueue(String topic) {
        return Map.of(
                "errors.tolerance", "all",
                "errors.deadletterqueue.topic.name", topic,
                "errors.deadletterqueue.topic.replication.factor", "1",
                "errors.deadletterqueue.context.headers.enable", "true");
    }

    /** The run's ledger table's change topic: {@code <prefix>.<schema>.ledger}, prefix and schema the run's name. */
    private static String ledgerTopic(String name) {
        return name + "." + name + ".ledger";
    }

    /** The raw value of the topic's first record: a genuine pglane change, as a forger would start from. */
    private static byte[] firstRecordOf(String topic) {
        Map<String, Object> config =
                Map.of("bootstrap.servers", worker.bootstrapServers(), "auto.offset.reset", "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    return record.value();
                }
            }
            throw new AssertionError("no record on " + topic);
        }
    }

    private static RecordMetadata injectPoison(String topic, byte[] value) throws Exception {
        Map<String, Object> config = Map.of("bootstrap.servers", worker.bootstrapServers(), "acks", "all");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            // a key the converter reads, so that the value is what fails
            byte[] key = "{\"schema\":{\"type\":\"string\"},\"payload\":\"junk\"}".getBytes(StandardCharsets.UTF_8);
            return producer.send(new ProducerRecord<>(topic, 0, key, value)).get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Restarts the failed task until it runs. A config update may restart it first, or be still in progress when the
     * restart is asked for (Connect then answers 409): either way, ask again until it runs.
     */
    private static void awaitTaskRunningAgain(String connector) {
        Waits.until("the task of " + connector + " runs again", FAILURE, () -> {
            ConnectorStatus status = worker.rest().status(connector);
            if (status.tasks().stream().anyMatch(task -> ConnectorStatus.FAILED.equals(task.state()))) {
                try {
                    worker.rest().restartTask(connector, 0);
                } catch (ConnectRestException e) {
                    return false;
                }
            }
            return status.isRunning();
        });
    }

    /** Waits until the connector's task has failed; returns its trace. */
    private static String awaitTaskFailure(String connector) {
        ConnectorStatus[] seen = new ConnectorStatus[1];
        Waits.until("the task of " + connector + " fails", FAILURE, () -> {
            seen[0] = worker.rest().status(connector);
            return seen[0].tasks().stream().anyMatch(task -> ConnectorStatus.FAILED.equals(task.state()));
        });
        return seen[0].tasks().stream()
                .filter(task -> ConnectorStatus.FAILED.equals(task.state()))
                .findFirst()
                .orElseThrow()
                .trace();
    }
}
