package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.stack.RegistryNode;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sink's mutation test in Avro: a real source writes the records of every type family and of a plain table
 * (inserts, updates, a key change, deletes) in Avro through a real registry (payload.format=avro), their bytes are
 * read from Kafka, and connect-sink's mutation harness ({@code AvroMutationCampaign}, from its test-jar, in a class
 * loader with the sink's plugin) runs each spoiled copy through a fresh sink task reading Avro through the same
 * registry: truncated and flipped bytes, a wrong magic byte, the schema id of another registered schema or of none, a
 * body another schema's writer wrote, and the generic ones (fields removed, types swapped, huge values, markers with
 * wrong counts and LSNs, another table's topic, a generation from the future) where Avro can carry them. Each ends
 * in the dead-letter queue, a stop naming the record, or a counted skip.
 *
 * <p>A fixed seed and {@value #DEFAULT_COUNT} mutations; {@code -Dpglane.mutation.count=N},
 * {@code -Dpglane.mutation.seed=S} and {@code -Dpglane.mutation.from=N} as for the JSON test.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class AvroInputMutationIT {
    static final int DEFAULT_COUNT = 60;
    private static final String PREFIX = "mutation_avro";
    private static final List<String> TABLES = List.of("public.every_type", "public.other");

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @RegisterExtension
    static final SchemaRegistry schemaRegistry = new SchemaRegistry();

    private static Path workDir;
    private static RegistryNode registry;

    @BeforeAll
    static void prepare() throws Exception {
        workDir = Files.createTempDirectory("pglane-avro-mutation-");
        registry = schemaRegistry.node();
    }

    @AfterAll
    static void cleanUp() throws IOException {
        SharedWorker.deleteRecursively(workDir);
    }

    @Test
    @DisplayName("every spoiled Avro record ends in the dead-letter queue, a stop naming it, or a counted skip")
    void everySpoiledAvroRecordEndsInTheDeadLetterQueueAStopOrACountedSkip() throws Throwable {
        Map<String, String> avro = TopicFormat.avroInLanes(registry.apicurioV2Url());
        List<String> lines =
                SinkInputCaptureIT.capture(worker, servers, PREFIX, avro, TopicFormat.avro(registry.apicurioV2Url()));
        Path capture = workDir.resolve("captured-avro.txt");
        Files.write(capture, lines, StandardCharsets.UTF_8);

        long seed = Long.getLong("pglane.mutation.seed", 35L);
        int count = Integer.getInteger("pglane.mutation.count", DEFAULT_COUNT);
        Map<String, String> format =
                Map.of("payload.format", "avro", "payload.avro.apicurio.registry.url", registry.apicurioV2Url());
        Map<String, Integer> outcomes =
                campaign(capture, format, seed, count, Integer.getInteger("pglane.mutation.from", 0));
        System.out.println("AvroInputMutationIT outcomes of " + count + " mutations: " + outcomes);
        assertEquals(6, outcomes.remove(finalRows), "every_type 1, 2, 40 and other 1, 2, 4");
        assertTrue(outcomes.getOrDefault("dead-lettered", 0) > 0, "undecodable records reach the DLQ: " + outcomes);
    }

    /** Runs connect-sink's {@code AvroMutationCampaign} with the sink's plugin jars, which are not on this class path. */
    private static String finalRows;

    @SuppressWarnings("unchecked")
    private static Map<String, Integer> campaign(
            Path capture, Map<String, String> format, long seed, int count, int from) throws Throwable {
        List<URL> urls = new ArrayList<>();
        urls.add(Path.of(System.getProperty("pglane.sink.test.jar")).toUri().toURL());
        Path lib = Path.of(System.getProperty("pglane.plugin.path"), "pglane-sink", "lib");
        try (Stream<Path> jars = Files.list(lib)) {
            for (Path jar :
                    jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                urls.add(jar.toUri().toURL());
            }
        }
        // parent first: what this class path has (Kafka, Apicurio, Avro, the drivers) is shared, as a worker shares
        // its own with a plugin; the context class loader stays this one, for Apicurio's configuration to find its own
        ClassLoader parent = AvroInputMutationIT.class.getClassLoader();
        try (URLClassLoader sink = new URLClassLoader("pglane-sink-mutation", urls.toArray(URL[]::new), parent)) {
            Class<?> campaign = sink.loadClass("dev.pglane.sink.AvroMutationCampaign");
            finalRows = (String) campaign.getField("FINAL_ROWS").get(null);
            Method run = campaign.getMethod("run", Path.class, List.class, Map.class, long.class, int.class, int.class);
            return (Map<String, Integer>) run.invoke(null, capture, TABLES, format, seed, count, from);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
