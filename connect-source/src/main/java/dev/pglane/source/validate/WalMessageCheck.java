package dev.pglane.source.validate;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ServerCheck;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may write logical decoding messages on the source. The connector writes its snapshot's watermarks with {@code
 * pg_logical_emit_message}, so its role needs EXECUTE on it whenever it snapshots (a problem on {@code database.user}
 * when it lacks it). Every other login with EXECUTE (PostgreSQL grants it to PUBLIC) can write messages too: pglane
 * refuses those without its seal, and a WARN names the grant to revoke, as defence in depth, and the cost it leaves
 * (WAL, a refusal counted and warned of per message).
 */
final class WalMessageCheck implements ServerCheck {
    private static final Logger log = LoggerFactory.getLogger(WalMessageCheck.class);
    /**
     * The overloads PUBLIC may call, as the server names them (PostgreSQL 17 added a flush argument), whether the
     * role may call the text one, and the role.
     */
    static final String QUERY = "SELECT pg_catalog.string_agg(p.oid::pg_catalog.regprocedure::pg_catalog.text, ', '"
            + " ORDER BY p.oid) FILTER (WHERE pg_catalog.has_function_privilege('public', p.oid, 'EXECUTE')),"
            + " pg_catalog.bool_or(pg_catalog.has_function_privilege(p.oid, 'EXECUTE'))"
            + " FILTER (WHERE p.proargtypes[2] = 'pg_catalog.text'::pg_catalog.regtype), current_user"
            + " FROM pg_catalog.pg_proc p WHERE p.proname = 'pg_logical_emit_message'"
            + " AND p.pronamespace = 'pg_catalog'::pg_catalog.regnamespace";

    private final String connectorName;
    private final boolean snapshots;

    /** @param snapshots whether the connector reads snapshots, whose watermarks it writes itself */
    WalMessageCheck(String connectorName, boolean snapshots) {
        this.connectorName = connectorName;
        this.snapshots = snapshots;
    }

    @Override
    public void run(Connection connection, List<ConfigProblem> problems) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(QUERY)) {
            rs.next();
            String everyone = rs.getString(1);
            boolean role = rs.getBoolean(2);
            String user = rs.getString(3);
            if (everyone != null) {
                log.warn(
                        "Connector '{}': every login on the source may call pg_logical_emit_message (EXECUTE is"
                                + " granted to PUBLIC). pglane obeys only the messages that carry its own seal and"
                                + " warns of the rest, but as defence in depth run REVOKE EXECUTE ON FUNCTION {} FROM"
                                + " PUBLIC, and GRANT EXECUTE on the text one to the connector's role"
                                + " (docs/operations.md)",
                        connectorName,
                        everyone);
            }
            if (!role && snapshots) {
                problems.add(new ConfigProblem(
                        DatabaseSettings.USER,
                        "role " + user + " may not call pg_logical_emit_message, with which the snapshot writes its"
                                + " watermarks: GRANT EXECUTE ON FUNCTION pg_logical_emit_message to the role (the"
                                + " overload with text content), or set snapshot.mode=never"));
            } else if (!role) {
                log.warn(
                        "Connector '{}': role {} may not call pg_logical_emit_message: signals of"
                                + " signal.kafka.topic, snapshot.new.tables and sequences.interval.ms, which write"
                                + " messages, will fail",
                        connectorName,
                        user);
            }
        }
    }
}
