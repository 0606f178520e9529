package dev.pglane.local.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A streaming standby of a {@link PostgresNode}, set up the way an operator without {@code pg_basebackup} would (the
 * embedded binaries have only {@code initdb}, {@code pg_ctl} and {@code postgres}): a physical slot on the primary,
 * a base backup through the low-level backup API ({@code pg_backup_start}, a copy of the data directory,
 * {@code pg_backup_stop} and its {@code backup_label}), then {@code standby.signal} and the connection to the primary
 * in {@code postgresql.auto.conf}. The standby streams WAL from its slot with {@code hot_standby_feedback} and keeps
 * copies of the primary's failover slots ({@code sync_replication_slots}, PostgreSQL 17 and newer).
 */
public final class PhysicalStandby {
    private static final Logger log = LoggerFactory.getLogger(PhysicalStandby.class);
    private static final Duration STREAMING = Duration.ofSeconds(60);

    /** Directories whose contents a base backup leaves out: the server rebuilds them, or they belong to the primary. */
    private static final Set<String> EMPTIED = Set.of(
            "pg_wal",
            "pg_replslot",
            "pg_stat_tmp",
            "pg_dynshmem",
            "pg_notify",
            "pg_serial",
            "pg_snapshots",
            "pg_subtrans");
    /** Files of the running primary (and of the embedded server's launcher) that a copy must not carry. */
    private static final Set<String> SKIPPED = Set.of("postmaster.pid", "postmaster.opts", "epg-lock");

    private PhysicalStandby() {}

    /**
     * Creates the physical slot {@code slot} on {@code primary}, copies it into {@code workDir/name/data} and starts
     * the standby there; returns once the primary reports it streaming.
     */
    public static PostgresNode start(
            PostgresNode primary, PostgresVersion version, String name, Path workDir, String slot) {
        long started = System.nanoTime();
        Path dataDir = workDir.resolve(name).resolve("data");
        try (Connection connection = primary.open()) {
            execute(connection, "SELECT pg_create_physical_replication_slot(?, true)", slot);
            execute(connection, "SELECT pg_backup_start(?, true)", "pglane standby " + name);
            copy(primary.dataDirectory(), dataDir);
            try (Statement st = connection.createStatement();
                    ResultSet rs = st.executeQuery("SELECT labelfile, spcmapfile FROM pg_backup_stop(true)")) {
                rs.next();
                Files.writeString(dataDir.resolve("backup_label"), rs.getString(1));
                String spcmap = rs.getString(2);
                if (spcmap != null && !spcmap.isEmpty()) {
                    Files.writeString(dataDir.resolve("tablespace_map"), spcmap);
                }
            }
            Files.createFile(dataDir.resolve("standby.signal"));
            // here rather than as server settings: the embedded launcher passes those on a command line, which a
            // connection string's spaces would break
            Files.writeString(
                    dataDir.resolve("postgresql.auto.conf"),
                    String.join(
                            "\n",
                            "primary_conninfo = 'host=" + primary.host() + " port=" + primary.port() + " user="
                                    + primary.user() + " dbname=" + primary.database() + " application_name=" + name
                                    + "'",
                            "primary_slot_name = '" + slot + "'",
                            "hot_standby_feedback = on",
                            "sync_replication_slots = " + (version.major() >= 17 ? "on" : "off"),
                            ""),
                    StandardOpenOption.APPEND);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot take a base backup of " + primary, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + primary + " into " + dataDir, e);
        }
        PostgresNode standby = PostgresNode.start(name, version, workDir, PostgresNode.WalLevel.LOGICAL);
        awaitStreaming(primary, name);
        log.info("standby {} of {} streaming after {}", name, primary, Timing.since(started));
        return standby;
    }

    private static void execute(Connection connection, String sql, String argument) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            st.setString(1, argument);
            st.execute();
        }
    }

    /** The data directory, less what a base backup leaves out; files that vanish while it is copied are skipped. */
    private static void copy(Path from, Path to) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(from)) {
            paths = walk.toList();
        }
        for (Path source : paths) {
            Path relative = from.relativize(source);
            if (left(relative)) {
                continue;
            }
            Path target = to.resolve(relative.toString());
            try {
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (NoSuchFileException | FileAlreadyExistsException e) {
                log.debug("{} changed while it was copied: {}", source, e.toString());
            }
        }
        Files.createDirectories(to.resolve("pg_wal").resolve("archive_status"));
        // the server refuses a data directory others may read
        Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwx------"));
    }

    private static boolean left(Path relative) {
        if (relative.getNameCount() == 0) {
            return false;
        }
        String first = relative.getName(0).toString();
        String last = relative.getFileName().toString();
        return (relative.getNameCount() > 1 && EMPTIED.contains(first))
                || (relative.getNameCount() == 1 && SKIPPED.contains(first))
                || last.equals("pg_internal.init");
    }

    private static void awaitStreaming(PostgresNode primary, String name) {
        long deadline = System.nanoTime() + STREAMING.toNanos();
        try (Connection connection = primary.open();
                PreparedStatement st = connection.prepareStatement(
                        "SELECT count(*) FROM pg_stat_replication WHERE application_name = ? AND state = 'streaming'")) {
            st.setString(1, name);
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) == 1) {
                        return;
                    }
                }
                Thread.sleep(100);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot watch the standby " + name + " from " + primary, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the standby " + name, e);
        }
        throw new IllegalStateException(
                "the standby " + name + " does not stream from " + primary + " after " + STREAMING.toSeconds() + " s");
    }

    /** {@code pg_promote}: the standby leaves recovery and becomes a primary on a new timeline. */
    public static void promote(PostgresNode standby) {
        try (Connection connection = standby.open();
                Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_promote(true, 60)")) {
            rs.next();
            if (!rs.getBoolean(1)) {
                throw new IllegalStateException(standby + " was not promoted within 60 s");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot promote " + standby, e);
        }
    }
}
