package dev.pglane.local.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaHomesTest {
    @TempDir
    Path root;

    private Path jdk(String name, String release) throws IOException {
        Path home = root.resolve(name);
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.createFile(java, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        if (release != null) {
            Files.writeString(home.resolve("release"), release);
        }
        return home;
    }

    @Test
    void theNewestJdkAtTheMinimumOrAboveIsChosen() throws IOException {
        jdk("java-17", "IMPLEMENTOR=\"Debian\"\nJAVA_VERSION=\"17.0.15\"\n");
        Path newest = jdk("temurin-25", "JAVA_VERSION=\"25.0.1\"\nOS_NAME=\"Linux\"\n");
        jdk("temurin-21", "JAVA_VERSION=\"21.0.8\"\n");
        jdk("broken", null);
        assertEquals(Optional.of(newest), JavaHomes.newest(root, 21));
        assertEquals(Optional.empty(), JavaHomes.newest(root, 26));
        assertEquals(Optional.empty(), JavaHomes.newest(root.resolve("absent"), 21));
    }
}
