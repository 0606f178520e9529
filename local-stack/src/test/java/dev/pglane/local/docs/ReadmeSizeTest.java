package dev.pglane.local.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README answers what pglane is, how it compares, how to try it and where to go next, and stays short enough to
 * read in a minute: what grows belongs in a guide under {@code docs/}.
 */
class ReadmeSizeTest {
    static final int MAX_LINES = 250;

    @Test
    void theReadmeStaysShort() throws IOException {
        long lines = Files.readAllLines(Path.of("..", "README.md")).size();
        assertTrue(
                lines <= MAX_LINES,
                "README.md has " + lines + " lines; move detail into docs/ (at most " + MAX_LINES + ")");
    }
}
