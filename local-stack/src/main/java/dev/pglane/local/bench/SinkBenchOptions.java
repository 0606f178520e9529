package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.stack.RegistryNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of {@link SinkCatchUpBench}.
 *
 * @param workers the {@code apply.workers} values to measure pglane's sink with; empty skips pglane
 * @param nativeSubscriber whether to measure PostgreSQL's own subscriber
 * @param sourceSettings changes to the example source config for the source stage
 * @param sinkSettings changes to the example sink config
 * @param avro whether the source writes and the sink reads Avro, in their own threads, through a schema registry
 *     the benchmark starts ({@code --format avro}); JSON otherwise
 */
public record SinkBenchOptions(
        PostgresVersion version,
        int runs,
        List<Integer> workers,
        BacklogShape backlog,
        Path outDir,
        Path pluginPath,
        boolean nativeSubscriber,
        Map<String, String> sourceSettings,
        Map<String, String> sinkSettings,
        boolean avro) {

    static final String USAGE = String.join(
            "\n",
            "options (all optional):",
            "  --pg-version N           PostgreSQL major of both servers: 14, 15, 16, 17 or 18 (default 17)",
            "  --runs N                 runs per configuration, each onto a fresh target database (default 3)",
            "  --workers LIST           apply.workers values of pglane's sink, comma-separated (default 1,2,4,8);",
            "                           an empty list (--workers '') measures PostgreSQL's subscriber only",
            "  --no-native              leave out PostgreSQL's own subscriber",
            "  --transactions N         pgbench transactions in the backlog, over all clients (default 40000)",
            "  --scale N                pgbench -i -s (default 10)",
            "  --clients N              pgbench -c (default 8)",
            "  --jobs N                 pgbench -j (default 2)",
            "  --out DIR                where report.json and sink-report.md go (default target/bench)",
            "  --plugin-path DIR        the worker's plugin.path (default local-stack/target/plugin-path)",
            "  --pgbench FILE           (default /usr/bin/pgbench)",
            "  --source-setting K=V     change one key of the example source config (repeatable)",
            "  --format F               json (default) or avro: what the source writes and the sink reads, avro in",
            "                           their own threads through an Apicurio Registry the benchmark starts",
            "  --sink-setting K=V       change one key of the example sink config (repeatable), e.g.",
            "                           buffer.max.bytes=536870912");

    public static SinkBenchOptions parse(String[] args) {
        BenchArgs words =
                BenchArgs.parse(args, USAGE, Set.of("--no-native"), Set.of("--source-setting", "--sink-setting"));
        int clients = words.positive("--clients", 8);
        int transactions = words.positive("--transactions", 40_000);
        SinkBenchOptions options = new SinkBenchOptions(
                PostgresVersion.parse(words.text("--pg-version", "17")),
                words.positive("--runs", 3),
                words.positives("--workers", "1,2,4,8"),
                new BacklogShape(
                        words.positive("--scale", 10),
                        clients,
                        words.positive("--jobs", 2),
                        (transactions + clients - 1) / clients,
                        0,
                        words.path("--pgbench", "/usr/bin/pgbench")),
                words.path("--out", "target/bench"),
                words.path("--plugin-path", "local-stack/target/plugin-path"),
                !words.flag("--no-native"),
                words.settings("--source-setting"),
                words.settings("--sink-setting"),
                BenchFormat.one(words.text("--format", "json")) == BenchFormat.AVRO);
        if (options.workers().isEmpty() && !options.nativeSubscriber()) {
            throw new IllegalArgumentException("nothing to measure: --workers is empty and --no-native is set");
        }
        return options;
    }

    /** These options with both connectors writing and reading Avro through {@code registry}, in their own threads. */
    SinkBenchOptions withAvroThrough(RegistryNode registry) {
        return new SinkBenchOptions(
                version,
                runs,
                workers,
                backlog,
                outDir,
                pluginPath,
                nativeSubscriber,
                BenchFormat.AVRO.settings(sourceSettings, registry),
                BenchFormat.AVRO.settings(sinkSettings, registry),
                true);
    }

    /** Whether pglane is measured: the source stage, the broker and the worker are needed only then. */
    boolean pglane() {
        return !workers.isEmpty();
    }
}
