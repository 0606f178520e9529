package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code pg_recvlogical} reading a slot with pgoutput into {@code /dev/null} until the backlog's end: the rate of
 * the walsender itself, the practical limit for any client of the streaming protocol.
 */
final class RecvLogicalRun {
    static final String SYSTEM = "pg_recvlogical (pgoutput) -> /dev/null";

    private final PostgresNode server;
    private final Path pgRecvlogical;

    RecvLogicalRun(PostgresNode server, Path pgRecvlogical) {
        if (!Files.isExecutable(pgRecvlogical)) {
            throw new IllegalStateException(pgRecvlogical + " is not there: install Debian's postgresql-client"
                    + " (apt-get install postgresql-client) or pass --pg-recvlogical");
        }
        this.server = server;
        this.pgRecvlogical = pgRecvlogical;
    }

    Measurement measure(String slot, Backlog.Info backlog, int protocolVersion)
            throws IOException, InterruptedException {
        return measure(slot, backlog, protocolVersion, Backlog.PUBLICATION);
    }

    /** As {@link #measure(String, Backlog.Info, int)}, sending only the changes {@code publication} captures. */
    Measurement measure(String slot, Backlog.Info backlog, int protocolVersion, String publication)
            throws IOException, InterruptedException {
        // bash's `times` prints the CPU of the children it ran: pg_recvlogical's own user and system time
        List<String> command = List.of(
                "bash",
                "-c",
                "\"$@\"; rc=$?; times >&2; exit $rc",
                "bash",
                pgRecvlogical.toString(),
                "-h",
                server.host(),
                "-p",
                Integer.toString(server.port()),
                "-U",
                server.user(),
                "-d",
                server.database(),
                "--slot",
                slot,
                "--start",
                "--endpos",
                backlog.end().toString(),
                "--plugin",
                "pgoutput",
                "-o",
                "proto_version=" + protocolVersion,
                "-o",
                "publication_names=" + publication,
                "-F",
                "0",
                "-f",
                "/dev/null");
        long pg = ProcCpu.postmasterPid(server.dataDirectory());
        double pgCpu = ProcCpu.serverSeconds(pg);
        long begin = System.nanoTime();
        Process process = new ProcessBuilder(command).start();
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        int rc = process.waitFor();
        double seconds = (System.nanoTime() - begin) / 1e9;
        Backlog.awaitSlotReleased(server, slot);
        pgCpu = ProcCpu.serverSeconds(pg) - pgCpu;
        if (rc != 0) {
            throw new IllegalStateException("pg_recvlogical failed (" + rc + "):\n" + stderr);
        }
        return new Measurement(
                SYSTEM, seconds, backlog.transactions(), backlog.changes(), pgCpu, childCpu(stderr), Map.of(), 0L);
    }

    /** The children's user + system seconds: the second line of bash's {@code times}, e.g. {@code 0m4.770s 0m1.2s}. */
    private static double childCpu(String stderr) {
        List<String> lines = stderr.lines().toList();
        String[] times = lines.get(lines.size() - 1).trim().split("\\s+");
        return seconds(times[0]) + seconds(times[1]);
    }

    private static double seconds(String time) {
        int m = time.indexOf('m');
        return Integer.parseInt(time.substring(0, m)) * 60
                + Double.parseDouble(time.substring(m + 1, time.length() - 1));
    }
}
