package dev.pglane.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Committed files that tests compare against, found from any module's working directory. */
public final class RepoFiles {
    /** Set to true to rewrite committed generated files instead of failing when they are stale. */
    public static final String WRITE_PROPERTY = "pglane.docs.write";

    private RepoFiles() {}

    /** The checkout's root: the nearest directory up from the working directory that has build-rules/. */
    public static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("build-rules"))) {
                return dir;
            }
        }
        throw new IllegalStateException("No build-rules/ above " + Path.of("").toAbsolutePath());
    }

    public static String read(String relativePath) {
        try {
            return Files.readString(root().resolve(relativePath), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Checks that a committed generated file holds {@code expected}; with {@code
     * -Dpglane.docs.write=true}, writes it instead.
     *
     * @return empty when the file is current (or was just written), else why it is not and how to fix it
     */
    public static String staleness(String relativePath, String expected, String regenerate) {
        Path file = root().resolve(relativePath);
        try {
            if (Boolean.getBoolean(WRITE_PROPERTY)) {
                Files.writeString(file, expected, StandardCharsets.UTF_8);
                return "";
            }
            if (Files.exists(file)
                    && Files.readString(file, StandardCharsets.UTF_8).equals(expected)) {
                return "";
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return relativePath + " does not match the ConfigDef it is generated from. Regenerate it with: " + regenerate;
    }
}
