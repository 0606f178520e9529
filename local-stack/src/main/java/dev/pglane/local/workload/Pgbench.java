package dev.pglane.local.workload;

import dev.pglane.local.stack.PostgresNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code pgbench} program (Debian's postgresql-client) run against one server, optionally with its tables in a
 * schema of their own, so that several workloads can share a server.
 */
public final class Pgbench {
    /** Where Debian's postgresql-client installs it. */
    public static final Path DEFAULT_EXECUTABLE = Path.of("/usr/bin/pgbench");

    private static final Pattern PROCESSED = Pattern.compile("number of transactions actually processed: (\\d+)");

    private final Path executable;
    private final PostgresNode server;
    private final String database;
    private final String schema;
    /** What every transaction-running call adds to pgbench's options, e.g. {@code -N}; not {@link #init}. */
    private final List<String> transactionOptions;

    private Pgbench(
            Path executable, PostgresNode server, String database, String schema, List<String> transactionOptions) {
        this.executable = executable;
        this.server = server;
        this.database = database;
        this.schema = schema;
        this.transactionOptions = transactionOptions;
    }

    /** pgbench at {@code executable} against {@code server}'s database, its tables in the default schema. */
    public static Pgbench of(Path executable, PostgresNode server) {
        return new Pgbench(executable, server, server.database(), null, List.of());
    }

    /** The same pgbench with its tables in {@code schema} (which must exist): it runs with that search_path. */
    public Pgbench inSchema(String schema) {
        return new Pgbench(executable, server, database, schema, transactionOptions);
    }

    /** The same pgbench on another database of the server. */
    public Pgbench inDatabase(String otherDatabase) {
        return new Pgbench(executable, server, otherDatabase, schema, transactionOptions);
    }

    /**
     * The same pgbench running its built-in {@code simple-update} script ({@code -N}) instead of TPC-B: one
     * pgbench_accounts update, one select and one pgbench_history insert a transaction, without the branch and teller
     * updates that make every TPC-B transaction depend on an earlier one.
     */
    public Pgbench withoutBranchAndTellerUpdates() {
        List<String> options = new ArrayList<>(transactionOptions);
        options.add("-N");
        return new Pgbench(executable, server, database, schema, List.copyOf(options));
    }

    public static boolean isInstalled(Path executable) {
        return Files.isExecutable(executable);
    }

    /** {@code pgbench -i -q -s scale}: drops and creates its tables, fills them, vacuums, adds the primary keys. */
    public void init(int scale) throws IOException, InterruptedException {
        run(List.of("-i", "-q", "-s", Integer.toString(scale)));
    }

    /**
     * {@code pgbench -i -q -s scale -I steps}, e.g. {@code dtpg}: tables and keys first, then the rows. The rows
     * pgbench generates depend on the scale only, so two servers initialised alike hold the same rows.
     */
    public void init(int scale, String steps) throws IOException, InterruptedException {
        run(List.of("-i", "-q", "-s", Integer.toString(scale), "-I", steps));
    }

    /** {@code pgbench -n -c clients -j jobs -t perClient}; returns the transactions it reports processed. */
    public long runTransactions(int clients, int jobs, int perClient) throws IOException, InterruptedException {
        return processed(run(transaction(List.of(
                "-n",
                "-c",
                Integer.toString(clients),
                "-j",
                Integer.toString(jobs),
                "-t",
                Integer.toString(perClient)))));
    }

    /** {@code pgbench -n -c clients -j jobs -T seconds}; returns the transactions it reports processed. */
    public long runFor(int clients, int jobs, Duration duration) throws IOException, InterruptedException {
        long seconds = Math.max(1, duration.toSeconds());
        return processed(run(transaction(List.of(
                "-n", "-c", Integer.toString(clients), "-j", Integer.toString(jobs), "-T", Long.toString(seconds)))));
    }

    /**
     * {@code pgbench -n -c clients -j jobs -R rate -T seconds}: a paced load for a fixed time; returns the
     * transactions it reports processed (fewer than {@code rate} a second when the machine cannot keep the pace).
     */
    public long runAtRate(int clients, int jobs, int rate, Duration duration) throws IOException, InterruptedException {
        long seconds = Math.max(1, duration.toSeconds());
        return processed(run(transaction(List.of(
                "-n",
                "-c",
                Integer.toString(clients),
                "-j",
                Integer.toString(jobs),
                "-R",
                Integer.toString(rate),
                "-T",
                Long.toString(seconds)))));
    }

    /**
     * Starts {@code pgbench -n -c clients -j jobs -R rate} in the background, for as long as the caller lets it run
     * (it stops at {@link Process#destroy}; its transactions then are whatever committed, e.g. pgbench_history's new
     * rows). Its output goes to {@code log}.
     */
    public Process startAtRate(int clients, int jobs, int rate, Path log) throws IOException {
        List<String> args = List.of(
                "-n",
                "-c",
                Integer.toString(clients),
                "-j",
                Integer.toString(jobs),
                "-R",
                Integer.toString(rate),
                "-T",
                Long.toString(Duration.ofDays(1).toSeconds()));
        return builder(transaction(args)).redirectOutput(log.toFile()).start();
    }

    /** A transaction-running call's options with {@link #transactionOptions} before them. */
    private List<String> transaction(List<String> pgbenchArgs) {
        List<String> args = new ArrayList<>(transactionOptions);
        args.addAll(pgbenchArgs);
        return args;
    }

    private static long processed(String output) {
        Matcher processed = PROCESSED.matcher(output);
        if (!processed.find()) {
            throw new IllegalStateException("pgbench did not report its transactions:\n" + output);
        }
        return Long.parseLong(processed.group(1));
    }

    private String run(List<String> pgbenchArgs) throws IOException, InterruptedException {
        Process process = builder(pgbenchArgs).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException(
                    "pgbench " + String.join(" ", pgbenchArgs) + " failed (" + process.exitValue() + "):\n" + output);
        }
        return output;
    }

    private ProcessBuilder builder(List<String> pgbenchArgs) {
        if (!isInstalled(executable)) {
            throw new IllegalStateException(executable + " is not there: install Debian's postgresql-client"
                    + " (apt-get install postgresql-client)");
        }
        List<String> command = new ArrayList<>(List.of(executable.toString()));
        command.addAll(pgbenchArgs);
        command.addAll(List.of("-h", server.host(), "-p", Integer.toString(server.port()), "-U", server.user()));
        command.add(database);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (schema != null) {
            builder.environment().put("PGOPTIONS", "-c search_path=" + schema);
        }
        return builder;
    }
}
