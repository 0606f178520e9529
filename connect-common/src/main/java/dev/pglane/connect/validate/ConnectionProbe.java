package dev.pglane.connect.validate;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.database.SqlStateClass;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Connects to the configured server and runs checks on it, all within a deadline, turning every
 * failure into a problem on the key the user has to fix. The work runs on its own named thread so
 * that a server that accepts TCP but never answers cannot hold the REST request forever.
 */
public final class ConnectionProbe {
    static final int MIN_SERVER_VERSION_NUM = 140_000;

    private final DatabaseEndpoint endpoint;
    private final String threadName;

    /** @param connectorName names the probe's thread and its session (application_name) */
    public ConnectionProbe(DatabaseEndpoint endpoint, String connectorName) {
        this.endpoint = endpoint;
        this.threadName = "pglane-" + connectorName + "-validate";
    }

    /** Connects, checks the server version, then runs {@code checks} in order; twice the connect timeout in all. */
    public List<ConfigProblem> run(List<ServerCheck> checks) {
        Duration limit = deadline();
        ExecutorService executor = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, threadName);
            thread.setDaemon(true);
            return thread;
        });
        try {
            return executor.submit(() -> connectAndCheck(checks)).get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return unreachable("no answer within " + limit.toMillis() + " ms");
        } catch (ExecutionException e) {
            return List.of(checkFailed(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return unreachable("interrupted while connecting");
        } finally {
            executor.shutdownNow();
        }
    }

    private Duration deadline() {
        return endpoint.connectTimeout().multipliedBy(2);
    }

    private List<ConfigProblem> connectAndCheck(List<ServerCheck> checks) {
        Connection connection;
        try {
            connection = endpoint.connect(threadName);
        } catch (SQLException e) {
            return connectFailure(e);
        }
        List<ConfigProblem> problems = new ArrayList<>();
        try (connection) {
            // A query the server never answers would otherwise pin this thread after the deadline.
            connection.setNetworkTimeout(Runnable::run, (int) deadline().toMillis());
            if (supportedVersion(connection, problems)) {
                for (ServerCheck check : checks) {
                    check.run(connection, problems);
                }
            }
        } catch (SQLException e) {
            problems.add(checkFailed(e));
        }
        return problems;
    }

    private boolean supportedVersion(Connection connection, List<ConfigProblem> problems) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT pg_catalog.current_setting('server_version_num')::int, pg_catalog.current_setting('server_version')")) {
            rs.next();
            if (rs.getInt(1) >= MIN_SERVER_VERSION_NUM) {
                return true;
            }
            problems.add(new ConfigProblem(
                    DatabaseSettings.HOST,
                    "PostgreSQL " + rs.getString(2) + " at " + endpoint.address()
                            + " is not supported; pglane needs 14 or newer"));
            return false;
        }
    }

    private List<ConfigProblem> connectFailure(SQLException e) {
        Optional<TlsFailure> tls = TlsFailure.of(e);
        if (tls.isPresent()) {
            String message = tls.get().explain(endpoint, describe(e));
            return tls.get().keys.stream()
                    .map(key -> new ConfigProblem(key, message))
                    .toList();
        }
        return switch (SqlStateClass.of(e)) {
            case AUTHENTICATION -> {
                String message = "PostgreSQL rejected user '" + endpoint.user() + "': " + describe(e);
                yield List.of(
                        new ConfigProblem(DatabaseSettings.USER, message),
                        new ConfigProblem(DatabaseSettings.PASSWORD, message));
            }
            case UNKNOWN_DATABASE ->
                List.of(new ConfigProblem(
                        DatabaseSettings.NAME,
                        "Database '" + endpoint.database() + "' does not exist on " + endpoint.address()));
            default -> unreachable(describe(e));
        };
    }

    private List<ConfigProblem> unreachable(String cause) {
        String message = "Cannot connect to PostgreSQL at " + endpoint.address() + ": " + cause;
        return List.of(
                new ConfigProblem(DatabaseSettings.HOST, message), new ConfigProblem(DatabaseSettings.PORT, message));
    }

    private ConfigProblem checkFailed(Throwable e) {
        return new ConfigProblem(
                DatabaseSettings.HOST, "Checking PostgreSQL at " + endpoint.address() + " failed: " + describe(e));
    }

    /** The message, plus the root cause where pgjdbc's own text is generic ("The connection attempt failed."). */
    static String describe(Throwable e) {
        String text = String.valueOf(e.getMessage());
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != e && !text.contains(String.valueOf(root.getMessage()))) {
            text += " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
        }
        return text;
    }
}
