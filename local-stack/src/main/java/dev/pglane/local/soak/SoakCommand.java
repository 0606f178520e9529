package dev.pglane.local.soak;

import dev.pglane.local.stack.PostgresVersion;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The Java half of {@code ./pglane-local soak}:
 *
 * <pre>
 * --work-dir DIR --plugin-path DIR [--minutes N] [--fault-interval SECONDS] [--seed N] [--workers N]
 *     [--clients N] [--pg-version N]
 * </pre>
 *
 * Exit 0 if the soak passed, 1 if it did not, 2 for a usage error.
 */
public final class SoakCommand {
    private SoakCommand() {}

    public static void main(String[] args) {
        int exit;
        try {
            exit = new Soak(parse(args), System.out).run();
        } catch (IllegalArgumentException e) {
            System.err.println("pglane-local soak: " + e.getMessage());
            exit = 2;
        } catch (Exception e) {
            e.printStackTrace();
            exit = 1;
        }
        System.exit(exit);
    }

    static SoakOptions parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value pairs, got '" + args[i] + "'");
            }
            options.put(args[i], args[i + 1]);
        }
        return new SoakOptions(
                options.containsKey("--pg-version")
                        ? PostgresVersion.parse(options.get("--pg-version"))
                        : PostgresVersion.fromProperty(),
                Path.of(required(options, "--work-dir")),
                Path.of(required(options, "--plugin-path")),
                Duration.ofMinutes(positive(options, "--minutes", 30)),
                Duration.ofSeconds(positive(options, "--fault-interval", 60)),
                options.containsKey("--seed")
                        ? Long.parseLong(options.get("--seed"))
                        : ThreadLocalRandom.current().nextLong(1_000_000),
                (int) positive(options, "--workers", 4),
                (int) positive(options, "--clients", 4));
    }

    private static String required(Map<String, String> options, String key) {
        String value = options.get(key);
        if (value == null) {
            throw new IllegalArgumentException(key + " is required");
        }
        return value;
    }

    private static long positive(Map<String, String> options, String key, long fallback) {
        String value = options.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            long number = Long.parseLong(value);
            if (number > 0) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below with the option's name
        }
        throw new IllegalArgumentException(key + " takes a positive whole number, not '" + value + "'");
    }
}
