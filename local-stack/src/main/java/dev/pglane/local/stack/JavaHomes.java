package dev.pglane.local.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The JDKs installed side by side in a directory such as {@code /usr/lib/jvm}, told apart by their release file. */
final class JavaHomes {
    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    private JavaHomes() {}

    /** The home of the newest JDK under {@code root} whose feature version is at least {@code minimum}. */
    static Optional<Path> newest(Path root, int minimum) {
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(root)) {
            return homes.filter(home -> Files.isExecutable(home.resolve("bin").resolve("java")))
                    .filter(home -> feature(home) >= minimum)
                    .max(Comparator.comparingInt(JavaHomes::feature));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The feature version a JDK's {@code release} file states ({@code JAVA_VERSION="21.0.2"} is 21); 0 if none. */
    static int feature(Path home) {
        try {
            Matcher version = VERSION.matcher(Files.readString(home.resolve("release")));
            return version.find() ? Integer.parseInt(version.group(1)) : 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }
}
