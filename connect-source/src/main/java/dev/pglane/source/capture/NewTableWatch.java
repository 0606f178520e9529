package dev.pglane.source.capture;

import dev.pglane.connect.database.ConnectionOpener;
import dev.pglane.source.emit.FailureSlot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares the tables the publication sends with the ones last announced, every {@link #PERIOD}, on a thread and a
 * connection of its own; when they differ, writes the publication's tables into the WAL as a {@link TablesMessage}, so
 * that the reader takes the change at one point of the stream. The message is written after the publication changed
 * (the watch saw the change committed), so the watermarks of the joined tables' snapshot, written later still, lie in
 * the stream after every change the server sends for them: the snapshot is as consistent as any other.
 */
public final class NewTableWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NewTableWatch.class);
    /** How soon a table that joined is noticed. */
    public static final Duration PERIOD = Duration.ofSeconds(5);

    private static final Duration CLOSE_WAIT = Duration.ofSeconds(1);

    private static final String PUBLISHED = "SELECT c.oid, pt.schemaname, pt.tablename"
            + " FROM pg_catalog.pg_publication_tables pt"
            + " JOIN pg_catalog.pg_namespace n ON n.nspname OPERATOR(pg_catalog.=) pt.schemaname"
            + " JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) n.oid"
            + " AND c.relname OPERATOR(pg_catalog.=) pt.tablename"
            + " WHERE pt.pubname OPERATOR(pg_catalog.=) ?";
    private static final String EMIT = "SELECT pg_catalog.pg_logical_emit_message(true, ?, ?)::pg_catalog.text";

    /**
     * @param signalTable schema.table of the signal table, never captured as a table; {@code null} when none
     * @param connections opens the watch's connection to the source
     */
    public record Settings(
            String connectorName,
            String topicPrefix,
            String publication,
            String signalTable,
            ConnectionOpener connections) {}

    private final Settings settings;
    private final FailureSlot failures;
    private final Thread thread;
    private volatile boolean closed;
    private CapturedTables announced;
    private Connection connection;
    private String lastProblem;

    private NewTableWatch(Settings settings, CapturedTables announced, FailureSlot failures) {
        this.settings = settings;
        this.announced = announced;
        this.failures = failures;
        this.thread = new Thread(this::run, "pglane-" + settings.connectorName() + "-new-tables");
        thread.setDaemon(true);
    }

    /**
     * @param announced the tables the session starts with
     * @param failures where a failure that ends the watch goes, to fail the task
     */
    public static NewTableWatch start(Settings settings, CapturedTables announced, FailureSlot failures) {
        NewTableWatch watch = new NewTableWatch(settings, announced, failures);
        watch.thread.start();
        return watch;
    }

    /** The tables {@code publication} sends now, schema.table by OID, the signal table left out. */
    public static Map<Long, String> published(Connection sql, String publication, String signalTable)
            throws SQLException {
        Map<Long, String> tables = new TreeMap<>();
        try (PreparedStatement st = sql.prepareStatement(PUBLISHED)) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(2) + "." + rs.getString(3);
                    if (!name.equals(signalTable)) {
                        tables.put(rs.getLong(1), name);
                    }
                }
            }
        }
        return tables;
    }

    /** The thread alone uses the connection, and closes it when it ends. */
    private void run() {
        try {
            watch();
        } catch (Throwable e) { // a watch that died quietly would never notice a table again
            if (!closed) {
                failures.fail(new ConnectException(
                        "The new-table watch of publication " + settings.publication() + " failed: " + e, e));
            }
        } finally {
            closeConnection();
        }
    }

    private void watch() {
        while (!closed) {
            try {
                Thread.sleep(PERIOD.toMillis());
                check();
                lastProblem = null;
            } catch (InterruptedException e) {
                return;
            } catch (SQLException e) {
                closeConnection();
                if (!e.getMessage().equals(lastProblem)) {
                    // once per kind of failure: the session's own connections report a server that is gone
                    log.warn(
                            "pglane source {}: cannot compare publication {} with the captured tables; tables that"
                                    + " joined it are not noticed until this works again: {}",
                            settings.connectorName(),
                            settings.publication(),
                            e.getMessage());
                    lastProblem = e.getMessage();
                }
            }
        }
    }

    private void check() throws SQLException {
        if (connection == null) {
            connection = settings.connections().open("pglane-" + settings.connectorName() + "-new-tables");
        }
        Map<Long, String> published = published(connection, settings.publication(), settings.signalTable());
        CapturedTables now = CapturedTables.of(published.keySet());
        if (now.equals(announced)) {
            return;
        }
        try (PreparedStatement st = connection.prepareStatement(EMIT)) {
            st.setString(1, TablesMessage.PREFIX);
            st.setString(2, new TablesMessage(settings.topicPrefix(), published).content());
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                log.info(
                        "pglane source {}: publication {} now sends {} tables, of which {} were not captured; the"
                                + " change is in the WAL at {}",
                        settings.connectorName(),
                        settings.publication(),
                        published.size(),
                        published.keySet().stream()
                                .filter(oid -> !announced.contains(oid))
                                .count(),
                        rs.getString(1));
            }
        }
        announced = now;
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                log.debug("Closing the new-table watch's connection failed", e);
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            // a session closes within seconds: a thread still in a query closes its connection once it returns
            thread.join(CLOSE_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
