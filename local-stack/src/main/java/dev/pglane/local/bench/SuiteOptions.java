package dev.pglane.local.bench;

import dev.pglane.local.bench.snapshot.SnapshotOptions;
import dev.pglane.local.stack.PostgresVersion;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of {@link SuiteBench}. {@code --quick} changes the defaults only: options given beside it win.
 *
 * @param engineClasspath the class path file of the engine JVM, or null to leave out the engine runs (pglane into a
 *     no-op consumer, Debezium)
 * @param nativeSubscriber whether the sink stage measures PostgreSQL's own subscriber
 * @param endToEnd how long the end-to-end stage's load runs, or null to leave that stage out
 * @param endToEndWorkers the sink's apply.workers in the end-to-end stage
 * @param targetDelay the delay per chunk each way of the proxy in front of the target in the latency stage, or null
 *     to leave that stage out
 * @param sourceSettings changes to the example source config, for the runs into Kafka
 * @param sinkSettings changes to the example sink config
 * @param snapshot the snapshot stage's sizes, or null to leave that stage out
 * @param formats what pglane's connectors write and read in Kafka in the source, sink, latency and end-to-end stages,
 *     each format measured side by side in each
 */
public record SuiteOptions(
        PostgresVersion version,
        int runs,
        List<Workload> workloads,
        BacklogShape backlog,
        List<Integer> workers,
        Path outDir,
        Path pluginPath,
        Path pgRecvlogical,
        Path engineClasspath,
        boolean nativeSubscriber,
        Duration endToEnd,
        int endToEndWorkers,
        Duration targetDelay,
        Map<String, String> sourceSettings,
        Map<String, String> sinkSettings,
        SnapshotOptions snapshot,
        Set<BenchFormat> formats) {

    static final String USAGE = String.join(
            "\n",
            "Every stage on the same backlogs, in one run: the source stage (pg_recvlogical, pglane into Kafka,",
            "pglane and Debezium 3.6.1.Final into a no-op consumer in Debezium's engine), the sink stage",
            "(PostgreSQL's subscriber, pglane's sink with each worker count), the latency stage (the sink with 1",
            "and 8 workers onto a target behind a delaying proxy) and the end-to-end stage (pgbench's load through",
            "the whole pipeline), then the snapshot stage (an initial load of tables that exist before the",
            "connector: COPY piped between the servers, Debezium's initial snapshot into a no-op consumer,",
            "pglane's snapshot into Kafka and end to end into an empty target, once more under pgbench's load",
            "while the slot's retained WAL is sampled). Every run is checked against the source. Writes",
            "report.json, report.md and report.html (charts drawn from report.json; ./pglane-local bench-report",
            "draws them again).",
            "options (all optional):",
            "  --quick                  small sizes for a smoke run: 1 run, pgbench scale 1 with 4,000",
            "                           transactions, 50,000 bulk rows, workers 1,4, a 20 s end-to-end load;",
            "                           snapshot: scale 2, 50,000 wide rows, threads 1,2",
            "                           (options given beside it win)",
            "  --runs N                 runs of every system on every backlog (default 3)",
            "  --workload W             pgbench, bulk, independent, both (pgbench and bulk; the default) or a",
            "                           comma-separated list: independent is pgbench -N (no branch and teller",
            "                           updates: transactions that rarely depend on each other) at --independent-scale",
            "  --transactions N         pgbench transactions, over all clients (default 240000)",
            "  --scale N                pgbench -i -s (default 10)",
            "  --independent-scale N    pgbench -i -s of the independent backlog (default 50; its initial rows are",
            "                           written on both servers before it, about a minute on 2 cores)",
            "  --clients N              pgbench -c (default 8)",
            "  --jobs N                 pgbench -j (default 2)",
            "  --bulk-rows N            rows of the bulk backlog, in 1,000-row transactions (default 2000000)",
            "  --workers LIST           apply.workers values of pglane's sink (default 1,2,4,8)",
            "  --no-native              leave out PostgreSQL's own subscriber",
            "  --no-engine              leave out the engine runs (pglane into a no-op consumer, Debezium)",
            "  --e2e-seconds N          the end-to-end stage: pgbench's load with --clients clients for N seconds",
            "                           while the whole pipeline runs, per run (default 60)",
            "  --e2e-workers N          apply.workers of the sink in the end-to-end stage (default 4)",
            "  --no-e2e                 leave out the end-to-end stage",
            "  --latency-us N           the latency stage (pgbench and independent backlogs): pglane's sink with 1",
            "                           and 8 workers onto a target behind a proxy that holds each chunk N µs each",
            "                           way (default 200)",
            "  --no-latency             leave out the latency stage",
            "  --snapshot-scale N       the snapshot stage's source: pgbench -i -s N in a database of its own",
            "                           (default 100: 10,000,000 pgbench_accounts rows)",
            "  --snapshot-wide-rows N   rows of its wide table (about 20 columns, 500 bytes a row; default 1000000)",
            "  --snapshot-threads LIST  snapshot.threads values of pglane's source (default 1,2,4)",
            "  --snapshot-rate N        pgbench -R on the source while the slot's retained WAL and the stream's",
            "                           lag are measured (TPC-B transactions per second, default 1000: half",
            "                           pglane's sustained rate at lag p99 <= 1 s on 2 cores)",
            "  --no-snapshot            leave out the snapshot stage",
            "  --format F               json (default), avro or both: what pglane's connectors write into Kafka and",
            "                           read from it in the source, sink, latency and end-to-end stages; both runs",
            "                           each of these stages in each format, side by side. Avro is written and read",
            "                           in the connectors' own threads through an Apicurio Registry the bench starts",
            "                           (Java 21+ needed). The snapshot stage runs in JSON",
            "  --pg-version N           PostgreSQL major of both servers: 14, 15, 16, 17 or 18 (default 17)",
            "  --out DIR                where report.json, report.md and report.html go (default target/bench)",
            "  --plugin-path DIR        the worker's plugin.path (default local-stack/target/plugin-path)",
            "  --engine-classpath FILE  the engine JVM's class path (default",
            "                           local-stack/target/engine-classpath.txt)",
            "  --pgbench FILE           (default /usr/bin/pgbench)",
            "  --pg-recvlogical FILE    (default /usr/bin/pg_recvlogical)",
            "  --source-setting K=V     change one key of the example source config (repeatable)",
            "  --sink-setting K=V       change one key of the example sink config (repeatable)");

    public static SuiteOptions parse(String[] args) {
        BenchArgs words = BenchArgs.parse(
                args,
                USAGE,
                Set.of("--quick", "--no-native", "--no-engine", "--no-latency", "--no-e2e", "--no-snapshot"),
                Set.of("--source-setting", "--sink-setting"));
        boolean quick = words.flag("--quick");
        int clients = words.positive("--clients", 8);
        int transactions = words.positive("--transactions", quick ? 4_000 : 240_000);
        return new SuiteOptions(
                PostgresVersion.parse(words.text("--pg-version", "17")),
                words.positive("--runs", quick ? 1 : 3),
                Workload.fromOption(words.text("--workload", "both")),
                new BacklogShape(
                        words.positive("--scale", quick ? 1 : 10),
                        words.positive("--independent-scale", BacklogShape.INDEPENDENT_SCALE),
                        clients,
                        words.positive("--jobs", 2),
                        (transactions + clients - 1) / clients,
                        words.positive("--bulk-rows", quick ? 50_000 : 2_000_000),
                        words.path("--pgbench", "/usr/bin/pgbench")),
                words.positives("--workers", quick ? "1,4" : "1,2,4,8"),
                words.path("--out", "target/bench"),
                words.path("--plugin-path", "local-stack/target/plugin-path"),
                words.path("--pg-recvlogical", "/usr/bin/pg_recvlogical"),
                words.flag("--no-engine")
                        ? null
                        : words.path("--engine-classpath", "local-stack/target/engine-classpath.txt"),
                !words.flag("--no-native"),
                words.flag("--no-e2e") ? null : Duration.ofSeconds(words.positive("--e2e-seconds", quick ? 20 : 60)),
                words.positive("--e2e-workers", 4),
                words.flag("--no-latency") ? null : Duration.ofNanos(1000L * words.positive("--latency-us", 200)),
                words.settings("--source-setting"),
                words.settings("--sink-setting"),
                words.flag("--no-snapshot") ? null : snapshot(words, quick),
                BenchFormat.parse(words.text("--format", "json")));
    }

    private static SnapshotOptions snapshot(BenchArgs words, boolean quick) {
        return new SnapshotOptions(
                words.positive("--snapshot-scale", quick ? 2 : 100),
                words.positive("--snapshot-wide-rows", quick ? 50_000 : 1_000_000),
                words.positives("--snapshot-threads", quick ? "1,2" : "1,2,4"),
                words.positive("--snapshot-rate", 1000));
    }
}
