package dev.pglane.it.bench;

import dev.pglane.it.stack.PostgresVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of {@link SourceThroughputBench}.
 *
 * @param transactionsPerClient pgbench's {@code -t}
 * @param bulkRows rows of the bulk backlog (in 1,000-row transactions)
 * @param connector false to measure pg_recvlogical alone (no broker or worker is started)
 * @param connectorSettings changes to the example connector config, e.g. producer overrides
 */
public record BenchOptions(
        PostgresVersion version,
        int runs,
        List<Workload> workloads,
        int scale,
        int clients,
        int jobs,
        int transactionsPerClient,
        int bulkRows,
        Path outDir,
        Path pluginPath,
        Path pgbench,
        Path pgRecvlogical,
        boolean connector,
        Map<String, String> connectorSettings) {

    static final String USAGE = String.join(
            "\n",
            "options (all optional):",
            "  --pg-version N           source PostgreSQL major: 14, 16, 17 or 18 (default 17)",
            "  --runs N                 runs per workload, each on a fresh backlog (default 3)",
            "  --workload W             pgbench, bulk or both (default pgbench)",
            "  --scale N                pgbench -i -s (default 10)",
            "  --clients N              pgbench -c (default 8)",
            "  --jobs N                 pgbench -j (default 2)",
            "  --transactions N         pgbench -t, per client (default 5000; the reference used 30000)",
            "  --bulk-rows N            rows of the bulk backlog, in 1,000-row transactions (default 500000)",
            "  --out DIR                where source-report.json and .md go (default target/bench)",
            "  --plugin-path DIR        the worker's plugin.path (default integration-tests/target/plugin-path)",
            "  --pgbench FILE           (default /usr/bin/pgbench)",
            "  --pg-recvlogical FILE    (default /usr/bin/pg_recvlogical)",
            "  --no-connector           measure pg_recvlogical only",
            "  --connector-setting K=V  change one key of the example connector config (repeatable), e.g.",
            "                           producer.override.batch.size=1048576");

    public static BenchOptions parse(String[] args) {
        Map<String, String> values = new HashMap<>();
        boolean connector = true;
        Map<String, String> connectorSettings = new LinkedHashMap<>();
        Iterator<String> words = List.of(args).iterator();
        while (words.hasNext()) {
            String option = words.next();
            if (option.equals("--no-connector")) {
                connector = false;
            } else if (option.equals("--connector-setting") && words.hasNext()) {
                String setting = words.next();
                int equals = setting.indexOf('=');
                if (equals < 1) {
                    throw new IllegalArgumentException("--connector-setting needs KEY=VALUE: " + setting);
                }
                connectorSettings.put(setting.substring(0, equals), setting.substring(equals + 1));
            } else if (option.startsWith("--") && words.hasNext()) {
                values.put(option, words.next());
            } else {
                throw new IllegalArgumentException("unknown option or missing value: " + option + "\n" + USAGE);
            }
        }
        BenchOptions options = new BenchOptions(
                PostgresVersion.parse(values.getOrDefault("--pg-version", "17")),
                positive(values, "--runs", 3),
                workloads(values.getOrDefault("--workload", "pgbench")),
                positive(values, "--scale", 10),
                positive(values, "--clients", 8),
                positive(values, "--jobs", 2),
                positive(values, "--transactions", 5000),
                positive(values, "--bulk-rows", 500_000),
                Path.of(values.getOrDefault("--out", "target/bench")),
                Path.of(values.getOrDefault("--plugin-path", "integration-tests/target/plugin-path")),
                Path.of(values.getOrDefault("--pgbench", "/usr/bin/pgbench")),
                Path.of(values.getOrDefault("--pg-recvlogical", "/usr/bin/pg_recvlogical")),
                connector,
                Map.copyOf(connectorSettings));
        for (String key : values.keySet()) {
            if (!USAGE.contains("  " + key + " ")) {
                throw new IllegalArgumentException("unknown option " + key + "\n" + USAGE);
            }
        }
        return options;
    }

    private static List<Workload> workloads(String value) {
        List<Workload> workloads = new ArrayList<>();
        switch (value) {
            case "pgbench" -> workloads.add(Workload.PGBENCH);
            case "bulk" -> workloads.add(Workload.BULK);
            case "both" -> workloads.addAll(List.of(Workload.PGBENCH, Workload.BULK));
            default -> throw new IllegalArgumentException("--workload must be pgbench, bulk or both: " + value);
        }
        return workloads;
    }

    private static int positive(Map<String, String> values, String key, int defaultValue) {
        String value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(key + " must be a positive integer: " + value);
    }
}
