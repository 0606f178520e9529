package dev.pglane.source.housekeeping;

import dev.pglane.connect.database.ConnectionOpener;
import dev.pglane.source.PeriodicWatch;
import dev.pglane.source.emit.FailureSlot;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * {@code heartbeat.action.query}: the operator's statement, run at every heartbeat interval so that a database whose
 * captured tables are idle still produces changes for the slot to move past. A run that fails is logged (once per
 * kind of failure) and the statement runs again at the next interval.
 */
public final class HeartbeatAction extends PeriodicWatch {
    private final String query;

    private HeartbeatAction(
            String connectorName, String query, Duration interval, ConnectionOpener connections, FailureSlot failures) {
        super(connectorName, "heartbeat-action", interval, connections, failures);
        this.query = query;
    }

    /** Starts running {@code query} every {@code interval}. */
    public static HeartbeatAction start(
            String connectorName, String query, Duration interval, ConnectionOpener connections, FailureSlot failures) {
        HeartbeatAction action = new HeartbeatAction(connectorName, query, interval, connections, failures);
        action.startThread();
        return action;
    }

    @Override
    protected void check(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute(query);
        }
    }

    @Override
    protected String describe() {
        return "the heartbeat action query";
    }

    @Override
    protected String whileFailing() {
        return "heartbeat.action.query fails, so idle captured tables make no change for the slot to move past";
    }
}
