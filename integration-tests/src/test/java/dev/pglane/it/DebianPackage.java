package dev.pglane.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A program from Debian's packages that a test needs and a fresh machine lacks, installed with apt (the tests run as
 * root). Two test classes run at once, and either may be installing: apt waits for the other's lock instead of
 * failing at once.
 */
final class DebianPackage {
    private static final Duration TIMEOUT = Duration.ofMinutes(8);
    private static final List<String> APT =
            List.of("apt-get", "-o", "DPkg::Lock::Timeout=" + TIMEOUT.toSeconds(), "-y", "--no-install-recommends");

    private DebianPackage() {}

    /** Installs {@code name} unless {@code program} is there; updates apt's lists first when they are too old. */
    static void ensure(String name, Path program) throws IOException, InterruptedException {
        if (Files.isExecutable(program)) {
            return;
        }
        String first = apt("install", name);
        if (first == null) {
            return;
        }
        String update = apt("update", null);
        String second = apt("install", name);
        if (second != null) {
            throw new IllegalStateException("apt-get install " + name + " failed:\n" + first + update + second);
        }
    }

    /** Runs apt; {@code null} when it succeeded, else what it printed. */
    private static String apt(String command, String name) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(APT);
        line.add(command);
        if (name != null) {
            line.add(name);
        }
        Path output = Files.createTempFile("pglane-apt-", ".out");
        try {
            ProcessBuilder builder = new ProcessBuilder(line)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException(String.join(" ", line) + " took over " + TIMEOUT.toSeconds() + " s:\n"
                        + Files.readString(output));
            }
            return process.exitValue() == 0 ? null : String.join(" ", line) + ":\n" + Files.readString(output);
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
