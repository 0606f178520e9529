package dev.pglane.it;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The real {@code ./pglane-local} script, run as a person runs it, in a state directory of its own
 * ({@code PGLANE_LOCAL_HOME}) so that a test's stack never meets a developer's running one. Registered as an extension
 * ({@link #inNewHome()}), it leaves nothing running after each test: a stack still up is stopped with {@code down}, and
 * the directory is deleted.
 */
final class LocalScript implements AfterEachCallback {
    /** The repository the tests were built from: the script, config-examples/ and docs/ are read from there. */
    static final Path REPO = Path.of(System.getProperty("pglane.repo.root", ".."));

    private static final Path SCRIPT = REPO.resolve("pglane-local");

    private final Path home;

    LocalScript(Path home) {
        this.home = home;
    }

    /** A script with a new, empty state directory of its own. */
    static LocalScript inNewHome() {
        try {
            return new LocalScript(Files.createTempDirectory("pglane-local-it-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (stackRunning()) {
            run(60, "down");
        }
        try (Stream<Path> files = Files.walk(home)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** What a command printed (standard output and error together) and how it exited. */
    record Result(int exitCode, String output) {}

    Path home() {
        return home;
    }

    /** Whether an {@code up} left a stack running that {@code down} has to stop. */
    boolean stackRunning() {
        return Files.exists(home.resolve("stack.pid"));
    }

    Result run(int timeoutSeconds, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        return start(timeoutSeconds, command, Map.of(), home);
    }

    /** The script under a pseudo-terminal ({@code script} from util-linux), as a person at a terminal runs it. */
    Result runInTerminal(int timeoutSeconds, String... args) throws Exception {
        String command = Stream.concat(Stream.of(SCRIPT.toString()), Stream.of(args))
                .map(word -> "'" + word + "'")
                .collect(Collectors.joining(" "));
        return start(
                timeoutSeconds,
                List.of("script", "--quiet", "--flush", "--return", "--command", command, "/dev/null"),
                Map.of(),
                home);
    }

    /** Any command, in {@code directory}, with {@code environment} added to this one's; no input. */
    Result start(int timeoutSeconds, List<String> command, Map<String, String> environment, Path directory)
            throws Exception {
        Path output = Files.createTempFile(home, "command-", ".out");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .directory(directory.toFile());
        builder.environment().put("PGLANE_LOCAL_HOME", home.toString());
        builder.environment().put("TERM", "xterm");
        builder.environment().putAll(environment);
        builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process process = builder.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(
                    String.join(" ", command) + " took over " + timeoutSeconds + " s:\n" + Files.readString(output));
        }
        return new Result(process.exitValue(), Files.readString(output));
    }

    /** The last lines of the stack's log, for a failure message. */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(home.resolve("stack.log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no stack.log: " + e + ")";
        }
    }
}
