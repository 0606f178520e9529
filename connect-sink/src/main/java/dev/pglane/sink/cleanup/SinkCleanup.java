package dev.pglane.sink.cleanup;

import dev.pglane.connect.config.CleanupCommand;
import dev.pglane.sink.PgSinkConfig;
import dev.pglane.sink.progress.OriginSessions;
import dev.pglane.sink.target.Identifiers;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.config.ConfigException;

/**
 * Removes what a deleted pglane sink leaves in its target: its row in the progress table, with which a new sink of the
 * same name would skip what the old one had applied, and with {@code progress.store=replication_origin} its
 * replication origins, each of which keeps one of the server's replication state slots taken for ever. While any
 * session of the sink is connected (the task has not stopped) it drops nothing, and says so. The origins of the
 * target's shared pool ({@code apply.origin}) stay: other sinks use them. Run it with the connector's REST JSON:
 *
 * <pre>{@code
 * java -cp "$KAFKA_HOME/libs/*:<plugin.path>/pglane-sink/*" dev.pglane.sink.cleanup.SinkCleanup sink.json
 * }</pre>
 *
 * <p>Exit status 0 when nothing of the sink is left, 1 when something stays, 2 for a config it cannot read.
 */
public final class SinkCleanup {
    private static final int APPLICATION_NAME_MAX = 63;

    private final PgSinkConfig config;
    private final String sinkName;
    private final PrintStream out;

    SinkCleanup(PgSinkConfig config, String sinkName, PrintStream out) {
        this.config = config;
        this.sinkName = sinkName;
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    /** What {@link #main} does, returning the exit status. */
    public static int run(String[] args, PrintStream out) {
        return CleanupCommand.run("SinkCleanup", args, out, (props, report) -> {
            String name = props.get("name");
            if (name == null) {
                throw new ConfigException("it names no connector (\"name\")");
            }
            return new SinkCleanup(new PgSinkConfig(props), name, report).clean();
        });
    }

    /** True when no origin and no progress row of the sink is left. */
    boolean clean() throws SQLException {
        try (Connection connection = config.database().connect("pglane-sink-cleanup")) {
            List<Integer> sessions = sessions(connection);
            if (!sessions.isEmpty()) {
                out.println("Sink " + sinkName + " is still connected (processes " + sessions + "): stop or delete it"
                        + " first (its task may take a few seconds to let go); nothing was dropped");
                return false;
            }
            if (!dropOrigins(connection)) {
                out.println("Kept the progress row of " + sinkName + " while the sink still applies");
                return false;
            }
            deleteProgress(connection);
            return true;
        }
    }

    /** The sink's own sessions, by the application_name every one of them sets ({@code pglane-<sink>-...}). */
    private List<Integer> sessions(Connection connection) throws SQLException {
        String prefix = "pglane-" + sinkName + "-";
        // the server keeps 63 bytes of application_name
        String kept = prefix.length() > APPLICATION_NAME_MAX ? prefix.substring(0, APPLICATION_NAME_MAX) : prefix;
        List<Integer> pids = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement("SELECT pid FROM pg_catalog.pg_stat_activity"
                + " WHERE pg_catalog.starts_with(application_name, ?) AND pid <> pg_catalog.pg_backend_pid()"
                + " ORDER BY pid")) {
            st.setString(1, kept);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    pids.add(rs.getInt(1));
                }
            }
        }
        return pids;
    }

    private boolean dropOrigins(Connection connection) throws SQLException {
        String prefix = OriginSessions.prefix(sinkName, config.sourceTopicPrefix());
        List<String> origins = OriginSessions.originsOf(connection, sinkName, config.sourceTopicPrefix());
        boolean all = true;
        for (String origin : origins) {
            try (PreparedStatement st =
                    connection.prepareStatement("SELECT pg_catalog.pg_replication_origin_drop(?)")) {
                st.setString(1, origin);
                st.execute();
                out.println("Dropped replication origin " + origin);
            } catch (SQLException e) {
                if (!OriginSessions.heldByAnotherSession(e)) {
                    throw e;
                }
                out.println("Replication origin " + origin + " is in use: stop or delete the sink first ("
                        + e.getMessage() + ")");
                all = false;
            }
        }
        if (origins.isEmpty()) {
            out.println("Replication origins " + prefix + "<worker>: none");
        }
        return all;
    }

    private void deleteProgress(Connection connection) throws SQLException {
        try (PreparedStatement exists = connection.prepareStatement("SELECT pg_catalog.to_regclass(?) IS NOT NULL")) {
            exists.setString(1, Identifiers.qualified(config.progressTable()));
            try (ResultSet rs = exists.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    out.println("Progress table " + config.progressTable() + ": none");
                    return;
                }
            }
        }
        try (PreparedStatement st = connection.prepareStatement("DELETE FROM "
                + Identifiers.qualified(config.progressTable()) + " WHERE sink_name = ? AND source_server = ?")) {
            st.setString(1, sinkName);
            st.setString(2, config.sourceTopicPrefix());
            int rows = st.executeUpdate();
            out.println("Deleted " + rows + " progress row" + (rows == 1 ? "" : "s") + " of " + sinkName + " from "
                    + config.progressTable());
        }
    }
}
