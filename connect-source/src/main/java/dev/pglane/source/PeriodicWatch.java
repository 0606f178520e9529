package dev.pglane.source;

import dev.pglane.connect.database.ConnectionOpener;
import dev.pglane.source.emit.FailureSlot;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session's background check that runs every period on a thread and a connection of its own, which the thread
 * alone uses and closes when it ends. A failed query is logged once per kind of failure (the session's own
 * connections report a server that is gone) and tried again with a new connection the next period; anything else
 * that ends the thread, an {@code Error} included, fails the task through the session's {@link FailureSlot}, since a
 * check that died quietly would leave the task running without it.
 */
public abstract class PeriodicWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PeriodicWatch.class);
    /** A session closes within seconds: a thread still in a query closes its connection once it returns. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(1);

    private final String connectorName;
    private final Duration period;
    private final ConnectionOpener connections;
    private final FailureSlot failures;
    private final Thread thread;
    private volatile boolean closed;
    private Connection connection;
    private String lastProblem;

    /** @param name what the watch is called in its thread's and its connection's names, e.g. {@code new-tables} */
    protected PeriodicWatch(
            String connectorName, String name, Duration period, ConnectionOpener connections, FailureSlot failures) {
        this.connectorName = connectorName;
        this.period = period;
        this.connections = connections;
        this.failures = failures;
        this.thread = new Thread(this::run, "pglane-" + connectorName + "-" + name);
        thread.setDaemon(true);
    }

    /** One look, on the watch's connection. */
    protected abstract void check(Connection connection) throws SQLException;

    /** The watch in a failure's message, e.g. {@code the new-table watch of publication pglane}. */
    protected abstract String describe();

    /** What goes undone while the watch's queries fail, for the WARN that says so. */
    protected abstract String whileFailing();

    /** Starts the thread; call once. */
    protected final void startThread() {
        thread.start();
    }

    /** One look on the watch's connection, opened first if needed; the thread calls it every period. */
    protected final void checkNow() throws SQLException {
        if (connection == null) {
            connection = connections.open(thread.getName());
        }
        check(connection);
    }

    private void run() {
        try {
            while (!closed) {
                Thread.sleep(period.toMillis());
                try {
                    checkNow();
                    lastProblem = null;
                } catch (SQLException e) {
                    closeConnection();
                    if (!String.valueOf(e.getMessage()).equals(lastProblem)) {
                        log.warn("pglane source {}: {}: {}", connectorName, whileFailing(), e.getMessage());
                        lastProblem = String.valueOf(e.getMessage());
                    }
                }
            }
        } catch (InterruptedException e) {
            // closing
        } catch (Throwable e) { // a watch that died quietly would leave the task running without it
            if (!closed) {
                failures.fail(new ConnectException(describe() + " failed: " + e, e));
            }
        } finally {
            closeConnection();
        }
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                log.debug("Closing the connection of {} failed", describe(), e);
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(CLOSE_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
