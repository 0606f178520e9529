package dev.pglane.sink.assemble;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the runs in one connector's spill directory that no live process holds: what a task killed
 * with its files on disk left. A run is dead when nobody holds the lock on its {@code run-<id>.lock}
 * (the operating system drops a lock with the process that held it), or when its directory has no lock
 * file at all (a run creates its lock before its directory and deletes it after). Entries that are not
 * runs are left alone, and so is a symbolic link named like a run: the sweep never follows one, so it deletes
 * nothing outside the connector's directory.
 */
final class SpillSweep {
    private static final Logger log = LoggerFactory.getLogger(SpillSweep.class);
    static final String RUN_PREFIX = "run-";
    static final String LOCK_SUFFIX = ".lock";

    /**
     * What a sweep found.
     *
     * @param runs dead runs deleted
     * @param files their files deleted
     * @param bytes the bytes of those files
     * @param liveRuns other runs whose lock is held, left alone
     */
    record Swept(int runs, int files, long bytes, int liveRuns) {}

    private final Path connectorDirectory;
    private final Path ownLock;
    private final Predicate<Path> heldHere;
    private int runs;
    private int files;
    private long bytes;
    private int liveRuns;

    /**
     * @param ownLock the lock file of the run that sweeps, which is neither dead nor another run
     * @param heldHere true for the lock files this JVM holds: probing one with a second channel would
     *     drop the lock when that channel closes, since POSIX locks belong to the process
     */
    SpillSweep(Path connectorDirectory, Path ownLock, Predicate<Path> heldHere) {
        this.connectorDirectory = connectorDirectory;
        this.ownLock = ownLock;
        this.heldHere = heldHere;
    }

    Swept sweep() throws IOException {
        List<Path> entries;
        try (Stream<Path> listing = Files.list(connectorDirectory)) {
            entries = listing.toList();
        }
        for (Path entry : entries) {
            String name = entry.getFileName().toString();
            if (!name.startsWith(RUN_PREFIX) || entry.equals(ownLock) || entry.equals(lockRun(ownLock))) {
                continue;
            }
            if (Files.isSymbolicLink(entry)) {
                log.warn("Left {} alone: a symbolic link named like a spill run, which no run creates", entry);
            } else if (name.endsWith(LOCK_SUFFIX)) {
                sweepLocked(entry, lockRun(entry));
            } else if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)
                    && !Files.exists(lockOf(entry), LinkOption.NOFOLLOW_LINKS)) {
                deleteRun(entry, null);
            }
        }
        return new Swept(runs, files, bytes, liveRuns);
    }

    static Path lockOf(Path runDirectory) {
        return runDirectory.resolveSibling(runDirectory.getFileName() + LOCK_SUFFIX);
    }

    private static Path lockRun(Path lockFile) {
        String name = lockFile.getFileName().toString();
        return lockFile.resolveSibling(name.substring(0, name.length() - LOCK_SUFFIX.length()));
    }

    private void sweepLocked(Path lockFile, Path runDirectory) throws IOException {
        if (heldHere.test(lockFile)) {
            liveRuns++;
            return;
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            FileLock lock = tryLock(channel);
            if (lock == null) {
                liveRuns++;
                return;
            }
            deleteRun(runDirectory, lockFile);
        } catch (NoSuchFileException e) {
            // its run closed, or another sweep took it, since the listing
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null; // held by this JVM under another path: alive
        }
    }

    /** Deletes a dead run's files, its directory and its lock file; a failure is logged, not thrown. */
    private void deleteRun(Path runDirectory, Path lockFile) {
        if (Files.isSymbolicLink(runDirectory)) {
            log.warn("Left {} alone: a symbolic link named like a spill run, which no run creates", runDirectory);
            return;
        }
        try {
            if (Files.isDirectory(runDirectory, LinkOption.NOFOLLOW_LINKS)) {
                try (Stream<Path> listing = Files.list(runDirectory)) {
                    for (Path file : listing.toList()) {
                        // a link inside is deleted itself, never what it points to
                        long size = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                                .size();
                        Files.delete(file);
                        files++;
                        bytes += size;
                    }
                }
                Files.delete(runDirectory);
            }
            if (lockFile != null) {
                Files.deleteIfExists(lockFile);
            }
            runs++;
        } catch (IOException e) {
            log.warn("Could not delete {}, left by an earlier run: {}", runDirectory, e.toString());
        }
    }
}
