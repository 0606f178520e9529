package dev.pglane.local.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * What every benchmark command does around its measurements: {@code --help}, a usage error on a bad option (exit 2),
 * a temporary work directory for the servers and the broker that is removed afterwards, and an explicit exit, since
 * the broker and worker leave non-daemon threads behind.
 */
public final class BenchLauncher {
    /** The measurements: writes the reports and returns the exit code (0 when every run was valid). */
    public interface Body<O> {
        int run(O options, Path workDir) throws Exception;
    }

    private BenchLauncher() {}

    public static <O> void launch(
            String command, String usage, String[] args, Function<String[], O> parse, Body<O> body) {
        if (List.of(args).contains("--help")) {
            System.out.println("usage: ./pglane-local " + command + " [options]\n" + usage);
            return;
        }
        O options;
        try {
            options = parse.apply(args);
        } catch (IllegalArgumentException e) {
            System.err.println(command + ": " + e.getMessage());
            System.exit(2);
            return;
        }
        int rc = 1;
        try {
            Path workDir = Files.createTempDirectory("pglane-bench-");
            try {
                rc = body.run(options, workDir);
            } finally {
                deleteRecursively(workDir);
            }
        } catch (Exception e) {
            System.err.println(command + " failed:");
            e.printStackTrace();
        }
        System.exit(rc);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
