package dev.pglane.sink.assemble;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where one run of a sink task keeps its spill files, and how many bytes they hold.
 *
 * <pre>
 * &lt;spill.directory&gt;/&lt;connector&gt;/run-&lt;pid&gt;-&lt;random&gt;.lock   locked while the run lives
 * &lt;spill.directory&gt;/&lt;connector&gt;/run-&lt;pid&gt;-&lt;random&gt;/       its spill files
 * </pre>
 *
 * <p>The connector's directory is its name with every character outside {@code [A-Za-z0-9_-]} written as
 * {@code %XX} (UTF-8), so connectors sharing one spill.directory never see each other's runs. It is private to the
 * user the worker runs as ({@link SpillPermissions}): 0700, owner checked, never a symbolic link; runs' directories
 * are 0700 and their files 0600. Opening an
 * area first locks a new run, then deletes this connector's dead runs ({@link SpillSweep}): a run whose
 * lock is still held — a task instance that has not finished stopping, or a connector of the same name in
 * another Connect cluster on the same directory — is left alone. {@link #close()} deletes the run.
 *
 * <p>{@link #bytes()} may be read from any thread; the task thread writes and deletes.
 */
public final class SpillArea implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SpillArea.class);
    /** Encoded names longer than this keep a prefix and a hash of the whole name: file names are limited. */
    private static final int MAX_NAME = 120;
    /**
     * The lock files this JVM holds. The sweep must not probe them: closing any channel on a file drops
     * every POSIX lock the process holds on it.
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path directory;
    private final Path lockFile;
    private final FileChannel lockChannel;
    private final SpillSweep.Swept swept;
    private final AtomicLong bytes = new AtomicLong();
    private boolean closed;

    private SpillArea(Path directory, Path lockFile, FileChannel lockChannel, SpillSweep.Swept swept) {
        this.directory = directory;
        this.lockFile = lockFile;
        this.lockChannel = lockChannel;
        this.swept = swept;
    }

    /**
     * Creates this run's directory under {@code base} and deletes what dead runs of {@code connector} left
     * there (one INFO line with their count and bytes).
     */
    public static SpillArea open(Path base, String connector) throws IOException {
        Path connectorDirectory = SpillPermissions.privateDirectory(base.resolve(directoryName(connector)));
        String run = SpillSweep.RUN_PREFIX + ProcessHandle.current().pid() + "-"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        Path lockFile = connectorDirectory.resolve(run + SpillSweep.LOCK_SUFFIX);
        FileChannel channel = FileChannel.open(
                lockFile, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), SpillPermissions.fileMode());
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new IOException("cannot lock the new file " + lockFile);
            }
            HELD.add(lockFile);
            Path directory = Files.createDirectory(connectorDirectory.resolve(run), SpillPermissions.directoryMode());
            SpillSweep.Swept swept = new SpillSweep(connectorDirectory, lockFile, HELD::contains).sweep();
            report(swept, connector, connectorDirectory);
            return new SpillArea(directory, lockFile, channel, swept);
        } catch (IOException | RuntimeException e) {
            HELD.remove(lockFile);
            channel.close();
            Files.deleteIfExists(connectorDirectory.resolve(run));
            Files.deleteIfExists(lockFile);
            throw e;
        }
    }

    private static void report(SpillSweep.Swept swept, String connector, Path connectorDirectory) {
        if (swept.runs() > 0) {
            log.info(
                    "Deleted {} spill files ({} bytes) that {} earlier runs of {} left in {}",
                    swept.files(),
                    swept.bytes(),
                    swept.runs(),
                    connector,
                    connectorDirectory);
        }
        if (swept.liveRuns() > 0) {
            log.warn(
                    "{} other runs of {} hold spill files in {}: a task instance that has not stopped yet, or a"
                            + " connector of the same name in another Connect cluster sharing spill.directory;"
                            + " their files are left alone",
                    swept.liveRuns(),
                    connector,
                    connectorDirectory);
        }
    }

    /** The directory of a connector's runs: its name, safe as one file name. */
    static String directoryName(String connector) {
        StringBuilder name = new StringBuilder();
        for (byte b : connector.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            boolean plain =
                    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (plain) {
                name.append(c);
            } else {
                name.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
            }
        }
        if (name.length() == 0) {
            return "%"; // no encoded name is a lone %
        }
        if (name.length() > MAX_NAME) {
            return name.substring(0, MAX_NAME - 17) + "-" + sha256(connector).substring(0, 16);
        }
        return name.toString();
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** A new, empty spill file of this run. */
    Path newFile(String prefix) throws IOException {
        // something (a tmp cleaner) may have removed an idle run's directory
        Files.createDirectories(directory, SpillPermissions.directoryMode());
        return Files.createTempFile(directory, prefix, ".spill", SpillPermissions.fileMode());
    }

    void added(long written) {
        bytes.addAndGet(written);
    }

    void removed(long deleted) {
        bytes.addAndGet(-deleted);
    }

    /** Bytes of this run's spill files on disk (written into their buffers, at least). */
    public long bytes() {
        return bytes.get();
    }

    /** This run's directory. */
    public Path directory() {
        return directory;
    }

    /** What opening found and deleted; for tests. */
    SpillSweep.Swept swept() {
        return swept;
    }

    /** Deletes this run's files and directory and releases its lock; files left are the next start's. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (Files.isDirectory(directory)) {
                try (Stream<Path> files = Files.list(directory)) {
                    for (Path file : files.toList()) {
                        Files.delete(file);
                    }
                }
                Files.delete(directory);
            }
            Files.delete(lockFile);
        } catch (IOException e) {
            log.warn("Could not delete the spill directory {}; the next start deletes it: {}", directory, e.toString());
        } finally {
            HELD.remove(lockFile);
            try {
                lockChannel.close();
            } catch (IOException e) {
                log.debug("Closing the lock of {} failed", directory, e);
            }
        }
    }
}
