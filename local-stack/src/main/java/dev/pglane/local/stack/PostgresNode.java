package dev.pglane.local.stack;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server (zonky's embedded binaries) with its data directory under a given work directory.
 *
 * <p>The data directory outlives {@link #restart()}, so fault tests can bounce a server and find their rows. The
 * server listens on 127.0.0.1 at a port fixed for the node's life; authentication is {@code trust}, so any password
 * is accepted and {@link #password()} is only there for configs that require one.
 */
public final class PostgresNode implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PostgresNode.class);
    private static final String HOST = "127.0.0.1";
    private static final String SUPERUSER = "postgres";
    private static final String DATABASE = "postgres";
    // First starts unpack ~60 MB per major, and the two cores are shared: zonky's 10 s default is too tight.
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(60);
    /** Lines of the server log a failed start quotes. */
    private static final int LOG_TAIL_LINES = 30;

    /** How much WAL the server writes: {@code logical} for a source, the default {@code replica} otherwise. */
    public enum WalLevel {
        REPLICA,
        LOGICAL
    }

    private final String name;
    private final PostgresVersion version;
    private final Path dataDir;
    private final Path logFile;
    private final Map<String, String> serverConfig;
    private final int port;
    private EmbeddedPostgres server;

    private PostgresNode(String name, PostgresVersion version, Path nodeDir, Map<String, String> serverConfig) {
        this.name = name;
        this.version = version;
        this.dataDir = nodeDir.resolve("data");
        this.logFile = nodeDir.resolve("postgres.log");
        this.serverConfig = Map.copyOf(serverConfig);
        this.port = FreePorts.next();
    }

    /**
     * Starts a server named {@code name}, with its data in {@code workDir/name/data} (reused when it holds one).
     *
     * @param walLevel {@link WalLevel#LOGICAL} also reserves replication slots and WAL senders for the source
     *     connector and tests
     */
    public static PostgresNode start(String name, PostgresVersion version, Path workDir, WalLevel walLevel) {
        return start(name, version, workDir, walLevel, Map.of());
    }

    /**
     * Like {@link #start(String, PostgresVersion, Path, WalLevel)}, with more server settings (e.g.
     * {@code shared_buffers} for a benchmark); they override the defaults of {@code walLevel}.
     */
    public static PostgresNode start(
            String name, PostgresVersion version, Path workDir, WalLevel walLevel, Map<String, String> settings) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("wal_level", walLevel.name().toLowerCase());
        if (walLevel == WalLevel.LOGICAL) {
            config.put("max_replication_slots", "10");
            config.put("max_wal_senders", "10");
        }
        config.putAll(settings);
        PostgresNode node = new PostgresNode(name, version, workDir.resolve(name), config);
        node.startServer();
        return node;
    }

    /** Stops the server (fast shutdown) and starts it again on the same port and data directory. */
    public void restart() {
        long started = System.nanoTime();
        stopServer();
        startServer();
        log.info("PostgreSQL '{}' restarted in {}", name, Timing.since(started));
    }

    /**
     * Stops the server (fast shutdown) and leaves it down until {@link #start()}: clients see their sessions end and
     * new connections refused, as during a maintenance window or a crash.
     */
    public void stop() {
        stopServer();
        log.info("PostgreSQL '{}' stopped", name);
    }

    /** Starts a server stopped by {@link #stop()} again, on the same port and data directory. */
    public void start() {
        if (server != null) {
            throw new IllegalStateException(this + " is running");
        }
        long started = System.nanoTime();
        startServer();
        log.info("PostgreSQL '{}' started again in {}", name, Timing.since(started));
    }

    /** Whether the server runs (it was not {@link #stop() stopped}). */
    public boolean isRunning() {
        return server != null;
    }

    private void startServer() {
        try {
            Files.createDirectories(dataDir);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setPgBinaryResolver(new VersionedPgBinaryResolver(version))
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    // the stack closes its parts in order; a hook of zonky's own would stop the server under Connect
                    .setRegisterShutdownHook(false)
                    .setPGStartupWait(STARTUP_WAIT)
                    .setPort(port)
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            serverConfig.forEach(builder::setServerConfig);
            server = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "PostgreSQL '" + name + "' (" + version + ") did not start; the end of " + logFile + ":\n"
                            + logTail(),
                    e);
        }
    }

    /** The server log's last lines: the log lives in a directory that the tests remove when they end. */
    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private void stopServer() {
        if (server == null) {
            return;
        }
        try {
            server.close();
            awaitPostmasterGone();
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL '" + name + "' did not stop; see " + logFile, e);
        } finally {
            server = null;
        }
    }

    /**
     * zonky's close gives {@code pg_ctl stop} a few seconds; a server still flushing its walsenders then shuts down
     * after pg_ctl returned, and a start before that would find its lock file and fail. The server is gone when
     * {@code postmaster.pid} is.
     */
    private void awaitPostmasterGone() throws IOException {
        Path pidFile = dataDir.resolve("postmaster.pid");
        long deadline = System.nanoTime() + STARTUP_WAIT.toNanos();
        while (Files.exists(pidFile)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the server still runs " + STARTUP_WAIT.toSeconds() + " s after it was stopped");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the server to stop", e);
            }
        }
    }

    /** The data directory; {@code postmaster.pid} in it names the running server's process. */
    public Path dataDirectory() {
        return dataDir;
    }

    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    public String database() {
        return DATABASE;
    }

    public String user() {
        return SUPERUSER;
    }

    public String password() {
        return SUPERUSER;
    }

    /** A URL that carries the superuser's credentials, so a JDBC client needs nothing else. */
    public String jdbcUrl() {
        return jdbcUrl(user(), password());
    }

    public String jdbcUrl(String user, String password) {
        return jdbcUrl(database(), user, password);
    }

    /** Like {@link #jdbcUrl()}, for another database of this server. */
    public String jdbcUrlOf(String database) {
        return jdbcUrl(database, user(), password());
    }

    private String jdbcUrl(String database, String user, String password) {
        return String.format(
                "jdbc:postgresql://%s:%d/%s?user=%s&password=%s", host(), port(), database, user, password);
    }

    /** A new superuser connection; the caller closes it. */
    public Connection open() throws SQLException {
        return DriverManager.getConnection(jdbcUrl());
    }

    /** A new superuser connection to another database of this server; the caller closes it. */
    public Connection open(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrlOf(database));
    }

    /** The server's {@code server_version}, e.g. {@code 17.6}. */
    public String serverVersion() {
        try (Connection connection = open();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SHOW server_version")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL '" + name + "' does not answer at " + host() + ":" + port, e);
        }
    }

    /** Stops the server and keeps its data directory. */
    @Override
    public void close() {
        stopServer();
    }

    @Override
    public String toString() {
        return "PostgreSQL '" + name + "' " + version.major() + " at " + host() + ":" + port;
    }
}
