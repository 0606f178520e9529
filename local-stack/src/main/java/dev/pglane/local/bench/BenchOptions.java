package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresVersion;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of {@link SourceThroughputBench}.
 *
 * @param connector false to measure pg_recvlogical alone (no broker or worker is started)
 * @param connectorSettings changes to the example connector config, e.g. producer overrides
 * @param formats what the connector writes into Kafka, each measured as a reader of its own: {@code json} (the
 *     example config) and {@code avro} (Avro written in the decoder lanes through a schema registry the benchmark
 *     starts)
 */
public record BenchOptions(
        PostgresVersion version,
        int runs,
        List<Workload> workloads,
        BacklogShape backlog,
        Path outDir,
        Path pluginPath,
        Path pgRecvlogical,
        boolean connector,
        Map<String, String> connectorSettings,
        Set<BenchFormat> formats) {

    static final String USAGE = String.join(
            "\n",
            "options (all optional):",
            "  --pg-version N           source PostgreSQL major: 14, 15, 16, 17 or 18 (default 17)",
            "  --runs N                 runs per workload, each on a fresh backlog (default 3)",
            "  --workload W             pgbench, bulk, independent (pgbench -N), both (pgbench and bulk) or a",
            "                           comma-separated list (default pgbench)",
            "  --scale N                pgbench -i -s (default 10)",
            "  --independent-scale N    pgbench -i -s of the independent backlog (default 50)",
            "  --clients N              pgbench -c (default 8)",
            "  --jobs N                 pgbench -j (default 2)",
            "  --transactions N         pgbench -t, per client (default 5000; the reference used 30000)",
            "  --bulk-rows N            rows of the bulk backlog, in 1,000-row transactions (default 500000)",
            "  --out DIR                where source-report.json and .md go (default target/bench)",
            "  --plugin-path DIR        the worker's plugin.path (default local-stack/target/plugin-path)",
            "  --pgbench FILE           (default /usr/bin/pgbench)",
            "  --pg-recvlogical FILE    (default /usr/bin/pg_recvlogical)",
            "  --no-connector           measure pg_recvlogical only",
            "  --format F               json, avro or both: what the connector writes (default json); avro is",
            "                           written in its decoder lanes through an Apicurio registry the bench starts",
            "  --connector-setting K=V  change one key of the example connector config (repeatable), e.g.",
            "                           producer.override.batch.size=1048576");

    public static BenchOptions parse(String[] args) {
        BenchArgs words = BenchArgs.parse(args, USAGE, Set.of("--no-connector"), Set.of("--connector-setting"));
        return new BenchOptions(
                PostgresVersion.parse(words.text("--pg-version", "17")),
                words.positive("--runs", 3),
                Workload.fromOption(words.text("--workload", "pgbench")),
                new BacklogShape(
                        words.positive("--scale", 10),
                        words.positive("--independent-scale", BacklogShape.INDEPENDENT_SCALE),
                        words.positive("--clients", 8),
                        words.positive("--jobs", 2),
                        words.positive("--transactions", 5000),
                        words.positive("--bulk-rows", 500_000),
                        words.path("--pgbench", "/usr/bin/pgbench")),
                words.path("--out", "target/bench"),
                words.path("--plugin-path", "local-stack/target/plugin-path"),
                words.path("--pg-recvlogical", "/usr/bin/pg_recvlogical"),
                !words.flag("--no-connector"),
                words.settings("--connector-setting"),
                BenchFormat.parse(words.text("--format", "json")));
    }
}
