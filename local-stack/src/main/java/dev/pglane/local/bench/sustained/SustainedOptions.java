package dev.pglane.local.bench.sustained;

import dev.pglane.local.bench.BenchArgs;
import dev.pglane.local.bench.BenchFormat;
import dev.pglane.local.stack.PostgresVersion;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The command line of {@link SustainedBench}.
 *
 * @param rates the pgbench {@code --rate} steps, rising
 * @param warmUp the paced load at the first rate before the first step, so that topics exist, consumers read them and
 *     the JIT has compiled the hot paths: the steps measure the steady state, not a start
 */
public record SustainedOptions(
        PostgresVersion version,
        List<SustainedSystem> systems,
        List<Integer> rates,
        Duration step,
        Duration warmUp,
        int runs,
        int scale,
        int clients,
        int jobs,
        Path pgbench,
        Path outDir,
        Path pluginPath,
        Path thirdPartyPluginPath,
        boolean quick) {

    static final String USAGE = String.join(
            "\n",
            "For each system, on the same servers and pgbench database: a paced pgbench load (--rate), stepped up until",
            "the lag no longer stays bounded, the lag measured alike for every system by a probe (a row committed on the",
            "source every 100 ms, timed until it is visible on the target, polled every 50 ms). Writes",
            "target/bench/sustained-report.json and .md and merges a sustained section into report.json.",
            "options (all optional):",
            "  --systems LIST           all, or some of pglane-json,pglane-avro,pglane-avro-2-groups,pglane-avro-4-groups,"
                    + " pglane-avro-eos,subscriber,debezium (default: every",
            "                           system, pglane in the formats --format names)",
            "  --rates LIST             pgbench --rate steps in tx/s, rising (default 250,500,1000,2000,4000)",
            "  --step-seconds N         how long each step's load runs (default 60)",
            "  --warm-up-seconds N      load at the first rate before the first step (default 10)",
            "  --runs N                 runs of every system; the report gives medians (default 3)",
            "  --format F               json, avro or both (default): which pglane runs when --systems is not",
            "                           given; Avro in the connectors' own threads through an Apicurio Registry",
            "  --quick                  a smoke run of a few minutes: rates 200,800, 15 s steps, 5 s warm-up, 1 run",
            "                           (options given beside it win)",
            "  --pg-version N           PostgreSQL major of both servers: 14, 15, 16, 17 or 18 (default 17)",
            "  --scale N                pgbench -i -s (default 10)",
            "  --clients N              pgbench -c (default 4)",
            "  --jobs N                 pgbench -j (default 2)",
            "  --pgbench FILE           (default /usr/bin/pgbench)",
            "  --out DIR                where the reports go (default target/bench)",
            "  --plugin-path DIR        pglane's plugins (default local-stack/target/plugin-path)",
            "  --third-party-plugin-path DIR",
            "                           Debezium's plugins (default local-stack/target/third-party-plugins)");

    public static SustainedOptions parse(String[] args) {
        BenchArgs words = BenchArgs.parse(args, USAGE, Set.of("--quick"), Set.of());
        boolean quick = words.flag("--quick");
        List<Integer> rates = words.positives("--rates", quick ? "200,800" : "250,500,1000,2000,4000");
        for (int i = 1; i < rates.size(); i++) {
            if (rates.get(i) <= rates.get(i - 1)) {
                throw new IllegalArgumentException("--rates must rise: " + rates);
            }
        }
        if (rates.isEmpty()) {
            throw new IllegalArgumentException("--rates names no rate");
        }
        return new SustainedOptions(
                PostgresVersion.parse(words.text("--pg-version", "17")),
                SustainedSystem.parseList(words.text("--systems", systemsFor(words.text("--format", "both")))),
                rates,
                Duration.ofSeconds(words.positive("--step-seconds", quick ? 15 : 60)),
                Duration.ofSeconds(words.positive("--warm-up-seconds", quick ? 5 : 10)),
                words.positive("--runs", quick ? 1 : 3),
                words.positive("--scale", 10),
                words.positive("--clients", 4),
                words.positive("--jobs", 2),
                words.path("--pgbench", "/usr/bin/pgbench"),
                words.path("--out", "target/bench"),
                words.path("--plugin-path", "local-stack/target/plugin-path"),
                words.path("--third-party-plugin-path", "local-stack/target/third-party-plugins"),
                quick);
    }

    /** Without --systems: every system, with pglane in the formats --format asks for. */
    private static String systemsFor(String format) {
        String pglane = format.equals("both")
                ? "pglane-json,pglane-avro"
                : "pglane-" + BenchFormat.one(format).option();
        return pglane + ",subscriber,debezium";
    }

    boolean needsConnect() {
        return systems.stream().anyMatch(s -> s != SustainedSystem.SUBSCRIBER);
    }

    /** Whether a system runs on a worker with exactly-once support for source connectors. */
    boolean needsExactlyOnceWorker() {
        return systems.contains(SustainedSystem.PGLANE_AVRO_EXACTLY_ONCE);
    }

    boolean needsRegistry() {
        return systems.stream().anyMatch(SustainedSystem::isAvro);
    }
}
