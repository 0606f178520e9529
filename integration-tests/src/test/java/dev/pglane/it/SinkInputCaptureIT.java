package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.kafka.WireDecoder;
import dev.pglane.local.kafka.WireRecord;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.wire.marker.Marker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Writes the fixture of the sink's mutation test ({@code connect-sink}'s {@code SinkInputMutationTest}): the bytes
 * the real source connector wrote to Kafka (payload.format=json, written by its decoder lanes) for a table with a
 * column of every type family (the rows of {@link TypeCases}, one transaction each), a plain second table, and
 * transactions that update and delete across both; with the DDL the target needs. Runs only when asked, with
 * {@code -Dpglane.capture.sink.input=true}, since it rewrites a file under {@code connect-sink/src/test/resources}
 * (the class condition keeps its worker and servers from starting otherwise).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@EnabledIfSystemProperty(named = SinkInputCaptureIT.PROPERTY, matches = "true")
class SinkInputCaptureIT {
    static final String PROPERTY = "pglane.capture.sink.input";
    private static final String PREFIX = "mutation_shop";
    private static final String FIXTURE = "connect-sink/src/test/resources/dev/pglane/sink/mutation/captured-json.txt";
    private static final int TYPE_ROWS = 4;

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @Test
    @DisplayName("the source's records of every type family, as bytes, for the sink's mutation test")
    void captureEveryTypeFamilyAsJsonBytes() throws Exception {
        String bytes = "org.apache.kafka.connect.converters.ByteArrayConverter";
        List<String> lines = capture(
                worker,
                servers,
                PREFIX,
                Map.of("payload.format", "json", "key.converter", bytes, "value.converter", bytes),
                TopicFormat.JSON);
        Path file = Path.of(System.getProperty("pglane.repo.root", ".."), FIXTURE);
        Files.createDirectories(file.getParent());
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    /**
     * Runs a source connector named {@code prefix} with {@code format} on a server of its own over the tables and
     * transactions of the mutation test, and gives every record of its topics as the lines of the fixture's format
     * (what connect-sink's {@code CapturedStream} reads).
     *
     * @param wire how the records are written, to count the changes the markers announce
     */
    static List<String> capture(
            SharedWorker worker, SourceServers servers, String prefix, Map<String, String> format, TopicFormat wire)
            throws Exception {
        PostgresNode source = servers.another(PostgresVersion.fromProperty());
        List<TypeCase> cases = TypeCases.all();
        List<String> ddl = new ArrayList<>(TypeCases.prerequisites());
        ddl.add(TypeCases.createTable("public.every_type", cases));
        ddl.add("CREATE TABLE public.other (id integer PRIMARY KEY, note text, amount numeric(12,2))");
        SqlSession.execute(source, ddl.toArray(String[]::new));
        List<String> transactions = new ArrayList<>();
        for (int row = 0; row < TYPE_ROWS; row++) {
            transactions.add(TypeCases.insert("public.every_type", cases, row));
        }
        transactions.add("INSERT INTO public.other VALUES (1, 'one', 1.50), (2, 'two', -2.25), (3, 'three', NULL)");
        transactions.add("UPDATE public.other SET note = 'uno', amount = 10 WHERE id = 1;"
                + " DELETE FROM public.every_type WHERE id = 4; DELETE FROM public.other WHERE id = 3");
        transactions.add("UPDATE public.every_type SET id = 40 WHERE id = 3; INSERT INTO public.other VALUES (4,"
                + " 'four', 4.00)");
        try (SourceConnectorRun run = SourceConnectorRun.start(worker, source, prefix, format);
                SqlSession session = SqlSession.open(source)) {
            for (String transaction : transactions) {
                for (String statement : transaction.split("; ")) {
                    session.exec(statement);
                }
                session.commit();
            }
            return lines(prefix, ddl, readAll(worker, prefix, wire, transactions.size()));
        }
    }

    /** Every record of the prefix's topics, once the marker topic has {@code ends} ENDs and their records arrived. */
    private static List<ConsumerRecord<byte[], byte[]>> readAll(
            SharedWorker worker, String prefix, TopicFormat format, int ends) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, worker.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "capture-" + System.nanoTime());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "500");
        WireDecoder decoder = new WireDecoder(prefix + ".transactions", format);
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        long endsSeen = 0;
        long changesAnnounced = 0;
        long changesRead = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(Pattern.compile(Pattern.quote(prefix) + "\\..*"));
            while (endsSeen < ends || changesRead < changesAnnounced) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("read " + endsSeen + " of " + ends + " ENDs and " + changesRead
                            + " of " + changesAnnounced + " changes");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    read.add(record);
                    WireRecord wire = decoder.decode(record);
                    if (wire instanceof WireRecord.MarkerRecord marker && marker.marker() instanceof Marker.End end) {
                        endsSeen++;
                        changesAnnounced += end.eventCount();
                    } else if (!(wire instanceof WireRecord.MarkerRecord)) {
                        changesRead++;
                    }
                }
            }
        }
        assertEquals(ends, endsSeen);
        return read;
    }

    private static List<String> lines(String prefix, List<String> ddl, List<ConsumerRecord<byte[], byte[]>> records) {
        Base64.Encoder base64 = Base64.getEncoder();
        List<String> lines = new ArrayList<>();
        lines.add("# written by integration-tests SinkInputCaptureIT (-D" + PROPERTY + "=true): the source's"
                + " records of every type family; one line per DDL statement or record, fields base64 or -");
        lines.add("prefix " + prefix);
        ddl.forEach(statement -> lines.add("ddl " + base64.encodeToString(statement.getBytes(StandardCharsets.UTF_8))));
        records.stream()
                .sorted(Comparator.comparing((ConsumerRecord<byte[], byte[]> r) -> r.topic())
                        .thenComparingInt(ConsumerRecord::partition)
                        .thenComparingLong(ConsumerRecord::offset))
                .forEach(record -> lines.add(String.join(
                        " ",
                        "record",
                        record.topic(),
                        Integer.toString(record.partition()),
                        Long.toString(record.offset()),
                        record.key() == null ? "-" : base64.encodeToString(record.key()),
                        record.value() == null ? "-" : base64.encodeToString(record.value()))));
        return lines;
    }
}
