package dev.pglane.local.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time from {@code /proc}: of a PostgreSQL server (its postmaster and every backend and walsender) and of this
 * JVM. Differences of two readings give a phase's CPU seconds.
 */
final class ProcCpu {
    /** Clock ticks per second of {@code /proc/<pid>/stat} times ({@code getconf CLK_TCK}; 100 on Linux/x86-64). */
    private static final double TICKS_PER_SECOND = 100.0;

    private ProcCpu() {}

    /** The postmaster's pid: the first line of {@code postmaster.pid} in its data directory. */
    static long postmasterPid(Path dataDirectory) {
        try {
            return Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid"))
                    .get(0)
                    .trim());
        } catch (IOException e) {
            throw new UncheckedIOException("no running server in " + dataDirectory, e);
        }
    }

    /**
     * CPU seconds of a server so far: the postmaster, its exited children (cutime/cstime, counted once the
     * postmaster reaped them) and its live children (backends, walsenders, background processes).
     */
    static double serverSeconds(long postmasterPid) {
        Stat postmaster = stat(postmasterPid);
        if (postmaster == null) {
            throw new IllegalStateException("process " + postmasterPid + " is not running");
        }
        long ticks = postmaster.withReapedChildren();
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path process : processes) {
                long pid = Long.parseLong(process.getFileName().toString());
                Stat child = pid == postmasterPid ? null : stat(pid);
                if (child != null && child.ppid() == postmasterPid) {
                    ticks += child.own();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list /proc", e);
        }
        return ticks / TICKS_PER_SECOND;
    }

    /** CPU seconds of this JVM so far, all threads. */
    static double jvmSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                        .getProcessCpuTime()
                / 1e9;
    }

    /** Ticks of one process: its own (utime + stime) and with its reaped children (+ cutime + cstime). */
    private record Stat(long ppid, long own, long withReapedChildren) {}

    /** {@code /proc/<pid>/stat}, or null when the process has exited. */
    private static Stat stat(long pid) {
        String line;
        try {
            line = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            return null; // exited between the listing and the read
        }
        // the command name (field 2) is in parentheses and may hold spaces: count fields after it, from field 3
        String[] fields = line.substring(line.lastIndexOf(')') + 2).trim().split(" ");
        long utime = Long.parseLong(fields[14 - 3]);
        long stime = Long.parseLong(fields[15 - 3]);
        long cutime = Long.parseLong(fields[16 - 3]);
        long cstime = Long.parseLong(fields[17 - 3]);
        return new Stat(Long.parseLong(fields[4 - 3]), utime + stime, utime + stime + cutime + cstime);
    }
}
