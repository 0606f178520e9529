package dev.pglane.it.bench;

import dev.pglane.it.stack.PostgresNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code pgbench} client: its tables at a scale, and its TPC-B-like transactions. */
final class Pgbench {
    private static final Pattern PROCESSED = Pattern.compile("number of transactions actually processed: (\\d+)");

    private final Path binary;

    Pgbench(Path binary) {
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException(binary + " is not there: install Debian's postgresql-client"
                    + " (apt-get install postgresql-client) or pass --pgbench");
        }
        this.binary = binary;
    }

    /**
     * {@code pgbench -i -s scale}: the four tables and their rows. The rows depend on the scale only (no random
     * values), so two databases initialised alike hold the same rows.
     */
    void initialise(PostgresNode server, String database, int scale) throws IOException, InterruptedException {
        run(server, database, List.of("-i", "-q", "-s", Integer.toString(scale)));
    }

    /** {@code pgbench -n -c -j -t}; returns the transactions it reports processed. */
    long transactions(PostgresNode server, int clients, int jobs, int perClient)
            throws IOException, InterruptedException {
        String output = run(
                server,
                server.database(),
                List.of(
                        "-n",
                        "-c",
                        Integer.toString(clients),
                        "-j",
                        Integer.toString(jobs),
                        "-t",
                        Integer.toString(perClient)));
        Matcher processed = PROCESSED.matcher(output);
        if (!processed.find()) {
            throw new IllegalStateException("pgbench did not report its transactions:\n" + output);
        }
        return Long.parseLong(processed.group(1));
    }

    private String run(PostgresNode server, String database, List<String> args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(args);
        command.addAll(List.of("-h", server.host(), "-p", Integer.toString(server.port()), "-U", server.user()));
        command.add(database);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("pgbench failed (" + process.exitValue() + "):\n" + output);
        }
        return output;
    }
}
