package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What each extra slot costs the source server when the tables are split into groups, each with a source connector,
 * a slot and a publication of its own: {@code ./pglane-local bench-slots [options]} (the options of {@link
 * BenchOptions#USAGE}; the connector ones do not apply). Per run, three slots at the same position read the same
 * backlog with {@code pg_recvlogical}, one after another (the order rotates): one whose publication has every table,
 * one whose publication has a single table of the workload (a group), and one whose publication has no table the
 * workload writes. The server's CPU during each read is its walsender's: logical decoding reads and decodes every
 * transaction of the WAL whatever the publication, which only filters what is sent. The report gives each slot's CPU
 * per 1,000 transactions and as a share of the whole-publication slot's.
 */
public final class SlotCostBench {
    private static final Logger log = LoggerFactory.getLogger(SlotCostBench.class);
    /** The publications, by what they hold, in report order. */
    private static final Map<String, String> PUBLICATIONS = publications();

    private SlotCostBench() {}

    private static Map<String, String> publications() {
        Map<String, String> publications = new LinkedHashMap<>();
        publications.put("every table", Backlog.PUBLICATION);
        publications.put("one table (pgbench_accounts; bulk_rows for bulk)", "bench_group");
        publications.put("no table the workload writes", "bench_none");
        return publications;
    }

    public static void main(String[] args) {
        BenchLauncher.launch("bench-slots", BenchOptions.USAGE, args, BenchOptions::parse, (options, workDir) -> {
            String report = run(options, workDir);
            System.out.println(report);
            Path out = options.outDir().resolve("slots-report.md");
            Files.createDirectories(options.outDir());
            Files.writeString(out, report);
            System.out.println("report: " + out);
            return 0;
        });
    }

    private static String run(BenchOptions options, Path workDir) throws Exception {
        List<String> names = new ArrayList<>(PUBLICATIONS.keySet());
        StringBuilder report = new StringBuilder("# Slot cost on one source server\n\n")
                .append(String.format(
                        Locale.ROOT,
                        "%s, %d cores, %d runs per workload; pg_recvlogical reads each slot to the"
                                + " backlog's end alone. Server CPU: the whole server's user and system time during"
                                + " the read (its walsender's, the rest idle).%n%n",
                        options.version(),
                        Runtime.getRuntime().availableProcessors(),
                        options.runs()));
        try (PostgresNode server = BenchServers.source("bench-slots", options.version(), workDir, 4)) {
            Backlog backlog = new Backlog(server, options.backlog());
            backlog.prepare(options.workloads().get(0));
            createPublications(server);
            RecvLogicalRun recvLogical = new RecvLogicalRun(server, options.pgRecvlogical());
            int protocol =
                    SourceThroughputBench.protocolVersion(options.version().major());
            for (Workload workload : options.workloads()) {
                if (backlog.scaleChanges(workload)) {
                    backlog.reset(workload);
                }
                Map<String, List<Double>> cpuPer1000 = new LinkedHashMap<>();
                names.forEach(name -> cpuPer1000.put(name, new ArrayList<>()));
                for (int run = 1; run <= options.runs(); run++) {
                    String[] slots = {"slot_all_" + run, "slot_group_" + run, "slot_none_" + run};
                    Backlog.Info info = backlog.create(workload, slots);
                    for (int k = 0; k < slots.length; k++) {
                        int i = (k + run - 1) % slots.length; // who reads first rotates
                        Measurement measured =
                                recvLogical.measure(slots[i], info, protocol, PUBLICATIONS.get(names.get(i)));
                        double per1000 = measured.sourceCpuSeconds() / info.transactions() * 1000;
                        cpuPer1000.get(names.get(i)).add(per1000);
                        log.info(
                                "run {} of {}: {} read in {} s, server CPU {} s ({} s per 1,000 tx)",
                                run,
                                workload.label(),
                                names.get(i),
                                format(measured.seconds()),
                                format(measured.sourceCpuSeconds()),
                                format(per1000));
                    }
                    backlog.dropSlots(slots);
                }
                report.append(table(workload, cpuPer1000));
            }
        }
        return report.toString();
    }

    private static void createPublications(PostgresNode server) throws Exception {
        try (Connection connection = server.open();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE PUBLICATION bench_group FOR TABLE pgbench_accounts, bulk_rows");
            statement.execute("CREATE PUBLICATION bench_none FOR TABLE fence");
        }
    }

    private static String table(Workload workload, Map<String, List<Double>> cpuPer1000) {
        double whole = Spread.of(cpuPer1000.values().iterator().next()).median();
        StringBuilder table = new StringBuilder("## " + workload.label() + "\n\n")
                .append("| slot's publication | server CPU s per 1,000 tx (median) | runs | vs every table |\n")
                .append("|---|---:|---|---:|\n");
        cpuPer1000.forEach((name, values) -> table.append(String.format(
                Locale.ROOT,
                "| %s | %.3f | %s | %.2f× |%n",
                name,
                Spread.of(values).median(),
                values.stream().map(SlotCostBench::format).toList(),
                Spread.of(values).median() / whole)));
        return table.append('\n').toString();
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }
}
