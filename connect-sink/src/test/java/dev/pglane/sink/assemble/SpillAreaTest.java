package dev.pglane.sink.assemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where runs keep their spill files and which leftovers a start deletes. Dead runs come from a JVM
 * killed with SIGKILL, live ones from an open area in this JVM or in a process still running.
 */
@Timeout(120)
class SpillAreaTest {
    private static final long DEAD_RUN_BYTES =
            OtherProcessRun.FILE_SIZES.stream().mapToLong(Integer::longValue).sum();

    @TempDir
    Path base;

    @Test
    void aStartDeletesWhatAKilledRunOfItsConnectorLeftAndNothingOfAnotherConnector() throws Exception {
        Path deadRun;
        try (OtherProcessRun killed = OtherProcessRun.start(base, "orders")) {
            deadRun = killed.directory();
        }
        Path otherConnectorsDeadRun;
        try (OtherProcessRun killed = OtherProcessRun.start(base, "invoices")) {
            otherConnectorsDeadRun = killed.directory();
        }
        try (SpillArea invoices = SpillArea.open(base, "invoices-live")) {
            Files.write(invoices.newFile("xid2-g1-"), new byte[10]);

            try (SpillArea orders = SpillArea.open(base, "orders")) {
                assertEquals(new SpillSweep.Swept(1, 2, DEAD_RUN_BYTES, 0), orders.swept());
                assertFalse(Files.exists(deadRun));
                assertFalse(Files.exists(SpillSweep.lockOf(deadRun)));
                assertEquals(2, files(otherConnectorsDeadRun).size(), "another connector's leftovers are its own");
                assertEquals(1, files(invoices.directory()).size(), "another connector's live run is untouched");
            }
        }
    }

    @Test
    void aRunAliveInAnotherProcessIsLeftAloneUntilItDies() throws Exception {
        OtherProcessRun other = OtherProcessRun.start(base, "orders");
        try {
            try (SpillArea orders = SpillArea.open(base, "orders")) {
                assertEquals(new SpillSweep.Swept(0, 0, 0, 1), orders.swept());
                assertEquals(2, files(other.directory()).size());
            }
        } finally {
            other.kill();
        }
        try (SpillArea orders = SpillArea.open(base, "orders")) {
            assertEquals(new SpillSweep.Swept(1, 2, DEAD_RUN_BYTES, 0), orders.swept());
            assertFalse(Files.exists(other.directory()));
        }
    }

    @Test
    void aRunStillOpenInThisJvmIsLeftAloneAndKeepsItsLock() throws Exception {
        try (SpillArea first = SpillArea.open(base, "orders")) {
            Files.write(first.newFile("xid1-g1-"), new byte[10]);
            // a task instance that has not stopped yet while its successor starts
            try (SpillArea second = SpillArea.open(base, "orders")) {
                assertEquals(new SpillSweep.Swept(0, 0, 0, 1), second.swept());
            }
            assertEquals(1, files(first.directory()).size());
            // another process must still find the first run locked: probing it here did not drop the lock
            try (OtherProcessRun third = OtherProcessRun.start(base, "orders")) {
                assertEquals(1, files(first.directory()).size());
                assertEquals(2, files(third.directory()).size());
            }
        }
    }

    @Test
    void closeDeletesTheRunAndARunDirectoryWithoutLockIsDead() throws Exception {
        Path connectorDirectory = base.resolve("orders");
        Path stray = Files.createDirectories(connectorDirectory.resolve("run-1-dead"));
        Files.write(stray.resolve("xid1-g1-1.spill"), new byte[7]);
        Path unrelated = Files.writeString(connectorDirectory.resolve("notes.txt"), "not ours");

        SpillArea orders = SpillArea.open(base, "orders");
        assertEquals(new SpillSweep.Swept(1, 1, 7, 0), orders.swept());
        Files.write(orders.newFile("xid1-g1-"), new byte[10]);
        orders.close();

        try (Stream<Path> left = Files.list(connectorDirectory)) {
            assertEquals(List.of(unrelated), left.toList(), "only what is not a run stays");
        }
    }

    @Test
    void connectorNamesBecomeDistinctSafeDirectoryNames() {
        assertEquals("orders-sink_2", SpillArea.directoryName("orders-sink_2"));
        assertEquals("a%2Fb%2E%2E", SpillArea.directoryName("a/b.."));
        assertEquals("%2E", SpillArea.directoryName("."));
        assertEquals("z%C3%BCrich", SpillArea.directoryName("zürich"));
        assertEquals("%", SpillArea.directoryName(""));
        assertNotEquals(SpillArea.directoryName("a.b"), SpillArea.directoryName("a_b"));
        String longName = "x".repeat(300);
        String shortened = SpillArea.directoryName(longName);
        assertEquals(120, shortened.length());
        assertNotEquals(shortened, SpillArea.directoryName(longName + "y"));
        assertTrue(shortened.startsWith("x".repeat(103) + "-"), shortened);
    }

    private static List<Path> files(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.toList();
        }
    }

    @Test
    void aPlantedRunLinkIsNeitherFollowedNorDeletedThrough() throws Exception {
        Path victim = Files.createDirectory(base.resolve("victim"));
        Files.write(victim.resolve("precious"), new byte[] {1, 2, 3});
        Path connector = Files.createDirectory(base.resolve("orders"));
        Files.createSymbolicLink(connector.resolve("run-1-dead"), victim);
        Files.createSymbolicLink(connector.resolve("run-2-dead"), victim);
        Files.write(connector.resolve("run-2-dead.lock"), new byte[0]);
        Files.write(victim.resolve("target.lock"), new byte[] {9});
        Files.createSymbolicLink(connector.resolve("run-3-dead.lock"), victim.resolve("target.lock"));
        try (SpillArea orders = SpillArea.open(base, "orders")) {
            assertEquals(new SpillSweep.Swept(0, 0, 0, 0), orders.swept());
        }
        assertEquals(
                List.of("precious", "target.lock"),
                files(victim).stream()
                        .map(p -> p.getFileName().toString())
                        .sorted()
                        .toList());
        assertTrue(Files.isSymbolicLink(connector.resolve("run-1-dead")), "left alone");
    }

    @Test
    void theConnectorsDirectoryIsPrivateAndItsFilesTheOwnersAlone() throws Exception {
        Path connector = Files.createDirectory(base.resolve("orders"));
        Files.setPosixFilePermissions(connector, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (SpillArea orders = SpillArea.open(base, "orders")) {
            Path file = orders.newFile("xid1-g1-");
            assertEquals("rwx------", mode(connector), "an existing directory is narrowed");
            assertEquals("rwx------", mode(orders.directory()));
            assertEquals("rw-------", mode(file));
            assertEquals("rw-------", mode(SpillSweep.lockOf(orders.directory())));
        }
    }

    @Test
    void aConnectorDirectoryThatIsALinkOrAnotherUsersIsRefused() throws Exception {
        Path elsewhere = Files.createDirectory(base.resolve("elsewhere"));
        Files.createSymbolicLink(base.resolve("orders"), elsewhere);
        IOException link = assertThrows(IOException.class, () -> SpillArea.open(base, "orders"));
        assertTrue(link.getMessage().contains("is not a directory but a symbolic link"), link::getMessage);
        assertEquals(List.of(), files(elsewhere), "nothing was created through the link");

        Path invoices = Files.createDirectory(base.resolve("invoices"));
        UserPrincipal nobody =
                base.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.setOwner(invoices, nobody); // the tests run as root, who may hand a directory to another user
        IOException owner = assertThrows(IOException.class, () -> SpillArea.open(base, "invoices"));
        assertTrue(owner.getMessage().contains("belongs to nobody"), owner::getMessage);

        Path open = Files.createDirectory(base.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        IOException parent = assertThrows(IOException.class, () -> SpillArea.open(open, "orders"));
        assertTrue(parent.getMessage().contains("writable by other users without the sticky bit"), parent::getMessage);
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }
}
