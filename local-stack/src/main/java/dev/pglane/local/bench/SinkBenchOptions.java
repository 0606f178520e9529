package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.stack.RegistryNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The command line of {@link SinkCatchUpBench}.
 *
 * @param workload the backlog: pgbench's TPC-B (the default), the independent one (pgbench -N) or bulk
 * @param workers the {@code apply.workers} values to measure pglane's sink with; empty skips pglane
 * @param nativeSubscriber whether to measure PostgreSQL's own subscriber
 * @param sourceSettings changes to the example source config for the source stage
 * @param sinkSettings changes to the example sink config
 * @param avro whether the source writes and the sink reads Avro, in their own threads, through a schema registry
 *     the benchmark starts ({@code --format avro}); JSON otherwise
 * @param targetDelay how long a proxy in front of the target holds each chunk each way for pglane's sink
 *     ({@link DelayedTarget}), or null for none
 */
public record SinkBenchOptions(
        PostgresVersion version,
        int runs,
        Workload workload,
        List<Integer> workers,
        BacklogShape backlog,
        Path outDir,
        Path pluginPath,
        boolean nativeSubscriber,
        Map<String, String> sourceSettings,
        Map<String, String> sinkSettings,
        boolean avro,
        Duration targetDelay,
        List<String> group) {

    static final String USAGE = String.join(
            "\n",
            "options (all optional):",
            "  --pg-version N           PostgreSQL major of both servers: 14, 15, 16, 17 or 18 (default 17)",
            "  --runs N                 runs per configuration, each onto a fresh target database (default 3)",
            "  --workers LIST           apply.workers values of pglane's sink, comma-separated (default 1,2,4,8);",
            "                           an empty list (--workers '') measures PostgreSQL's subscriber only",
            "  --no-native              leave out PostgreSQL's own subscriber",
            "  --workload W             the backlog: pgbench (TPC-B, the default), independent (pgbench -N: one",
            "                           account update and one keyless history insert, transactions that rarely",
            "                           depend on each other) or bulk",
            "  --latency-us N           pglane's sink reaches the target through a proxy that holds each chunk",
            "                           N µs each way (a cross-zone target: 500); PostgreSQL's subscriber applies",
            "                           inside the target and is not delayed (default: no proxy)",
            "  --transactions N         pgbench transactions in the backlog, over all clients (default 40000)",
            "  --scale N                pgbench -i -s (default 10; 50 with --workload independent, whose initial",
            "                           rows are written on both servers first, about a minute on 2 cores)",
            "  --bulk-rows N            rows of the bulk backlog, in 1,000-row transactions (default 500000)",
            "  --clients N              pgbench -c (default 8)",
            "  --jobs N                 pgbench -j (default 2)",
            "  --out DIR                where report.json and sink-report.md go (default target/bench)",
            "  --plugin-path DIR        the worker's plugin.path (default local-stack/target/plugin-path)",
            "  --pgbench FILE           (default /usr/bin/pgbench)",
            "  --source-setting K=V     change one key of the example source config (repeatable)",
            "  --format F               json (default) or avro: what the source writes and the sink reads, avro in",
            "                           their own threads through an Apicurio Registry the benchmark starts",
            "  --sink-setting K=V       change one key of the example sink config (repeatable), e.g.",
            "                           buffer.max.bytes=536870912",
            "  --group TABLES           pglane's sink applies only these tables of the backlog (comma-separated, in",
            "                           public) and its one-row fence, a table group (apply.scope=consumed_topics):",
            "                           what one of several groups costs; its run is compared on those tables only");

    public static SinkBenchOptions parse(String[] args) {
        BenchArgs words =
                BenchArgs.parse(args, USAGE, Set.of("--no-native"), Set.of("--source-setting", "--sink-setting"));
        int clients = words.positive("--clients", 8);
        int transactions = words.positive("--transactions", 40_000);
        List<Workload> workloads = Workload.fromOption(words.text("--workload", "pgbench"));
        if (workloads.size() != 1) {
            throw new IllegalArgumentException("bench-sink measures one --workload at a time: " + workloads);
        }
        Workload workload = workloads.get(0);
        int scale = words.positive("--scale", workload == Workload.INDEPENDENT ? BacklogShape.INDEPENDENT_SCALE : 10);
        SinkBenchOptions options = new SinkBenchOptions(
                PostgresVersion.parse(words.text("--pg-version", "17")),
                words.positive("--runs", 3),
                workload,
                words.positives("--workers", "1,2,4,8"),
                new BacklogShape(
                        scale,
                        scale,
                        clients,
                        words.positive("--jobs", 2),
                        (transactions + clients - 1) / clients,
                        words.positive("--bulk-rows", 500_000),
                        words.path("--pgbench", "/usr/bin/pgbench")),
                words.path("--out", "target/bench"),
                words.path("--plugin-path", "local-stack/target/plugin-path"),
                !words.flag("--no-native"),
                words.settings("--source-setting"),
                words.settings("--sink-setting"),
                BenchFormat.one(words.text("--format", "json")) == BenchFormat.AVRO,
                words.text("--latency-us", null) == null
                        ? null
                        : Duration.ofNanos(1000L * words.positive("--latency-us", 0)),
                Arrays.stream(words.text("--group", "").split(","))
                        .map(String::trim)
                        .filter(t -> !t.isEmpty())
                        .toList());
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
                workload,
                workers,
                backlog,
                outDir,
                pluginPath,
                nativeSubscriber,
                BenchFormat.AVRO.settings(sourceSettings, registry),
                BenchFormat.AVRO.settings(sinkSettings, registry),
                true,
                targetDelay,
                group);
    }

    /**
     * The sink settings that make pglane's sink apply only {@link #group()}'s tables of the topics under {@code
     * prefix}, and the backlog's fence, whose row tells the timer the backlog is applied; none without a group.
     */
    Map<String, String> groupSettings(String prefix) {
        if (group.isEmpty()) {
            return Map.of();
        }
        return Map.of(
                "apply.scope",
                "consumed_topics",
                "topics.regex",
                Pattern.quote(prefix) + "\\.(transactions|public\\.(" + String.join("|", groupTables()) + "))");
    }

    /** Whether pglane's run compares {@code table} ({@code schema.table}): every table, or its group's. */
    boolean compares(String table) {
        return group.isEmpty() || groupTables().stream().anyMatch(t -> table.equals("public." + t));
    }

    private List<String> groupTables() {
        List<String> tables = new ArrayList<>(group);
        tables.add(Backlog.FENCE_TABLE);
        return tables;
    }

    /** Whether pglane is measured: the source stage, the broker and the worker are needed only then. */
    boolean pglane() {
        return !workers.isEmpty();
    }
}
