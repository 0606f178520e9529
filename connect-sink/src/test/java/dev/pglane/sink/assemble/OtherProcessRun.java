package dev.pglane.sink.assemble;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A run of a connector's spill area in another JVM, as a worker process holds it: alive until killed,
 * and killed the hard way (SIGKILL), so that what it leaves on disk is what a crashed Connect worker
 * leaves, with its lock dropped by the operating system and not by any code of ours.
 */
public final class OtherProcessRun implements AutoCloseable {
    /** The spill files each run writes, by size. */
    public static final List<Integer> FILE_SIZES = List.of(1000, 2345);

    private final Process process;
    private final Path directory;

    private OtherProcessRun(Process process, Path directory) {
        this.process = process;
        this.directory = directory;
    }

    /** Starts a process that opens a run of {@code connector} under {@code base} and writes its files. */
    public static OtherProcessRun start(Path base, String connector) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process process = new ProcessBuilder(
                        java, "-cp", classPath, OtherProcessRun.class.getName(), base.toString(), connector)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("ready ")) {
            process.destroyForcibly();
            throw new IOException("the other process did not open its run: " + line);
        }
        return new OtherProcessRun(process, Path.of(line.substring("ready ".length())));
    }

    /** The run's directory. */
    public Path directory() {
        return directory;
    }

    /** Kills the process without letting it clean up, and waits until it is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the other process did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while the other process died", e);
        }
    }

    @Override
    public void close() {
        kill();
    }

    /** The other process: opens the run, writes its files, says where, and waits to be killed. */
    public static void main(String[] args) throws IOException {
        SpillArea area = SpillArea.open(Path.of(args[0]), args[1]);
        for (int size : FILE_SIZES) {
            Files.write(area.newFile("xid1-g1-"), new byte[size]);
        }
        System.out.println("ready " + area.directory());
        System.out.flush();
        while (System.in.read() >= 0) {
            // until killed (or the parent closes our input)
        }
    }
}
