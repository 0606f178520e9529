package dev.pglane.sink.target;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check of a target table's triggers before the sink writes to it. The sink applies with {@code
 * session_replication_role = replica}, under which triggers enabled ALWAYS or REPLICA fire, and a trigger runs with
 * the rights of the role that fired it: applying as a superuser (which PostgreSQL 14 requires for that setting) into a
 * table whose owner is a role that is not a superuser, and that has such triggers, lets that owner run any code as a
 * superuser. Such a table is warned of once ({@link Policy#WARN}) or refused ({@link Policy#REFUSE}). Partitions count
 * with their partitioned table, since rows routed to them fire their triggers. Thread-safe.
 */
public final class ForeignTriggers {
    private static final Logger log = LoggerFactory.getLogger(ForeignTriggers.class);

    /** What to do about such a table: lower_snake names for {@code apply.foreign.triggers}. */
    public enum Policy {
        WARN,
        REFUSE
    }

    /** The owner, when it is no superuser nor the session's role, and the triggers, when the session is a superuser. */
    private static final String FOREIGN = "SELECT o.rolname, pg_catalog.string_agg(DISTINCT"
            + " pg_catalog.quote_ident(c.relname) || '.' || pg_catalog.quote_ident(t.tgname), ', ')"
            + " FROM pg_catalog.pg_class c"
            + " JOIN pg_catalog.pg_roles o ON o.oid = c.relowner"
            + " JOIN pg_catalog.pg_trigger t ON t.tgrelid = c.oid"
            + " WHERE (c.oid = pg_catalog.to_regclass(?)" // a table that is not partitioned is in no partition tree
            + " OR c.oid IN (SELECT p.relid FROM pg_catalog.pg_partition_tree(pg_catalog.to_regclass(?)) p))"
            + " AND NOT t.tgisinternal AND t.tgenabled IN ('A', 'R')"
            + " AND NOT o.rolsuper AND o.rolname OPERATOR(pg_catalog.<>) CURRENT_USER"
            + " AND (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER)"
            + " GROUP BY o.rolname ORDER BY o.rolname";

    private final Policy policy;
    private final WarnOnce warnings = new WarnOnce(log);

    public ForeignTriggers(Policy policy) {
        this.policy = policy;
    }

    /**
     * Checks {@code table} through {@code connection}: a WARN once per table, or a refusal.
     *
     * @throws ConnectException under {@link Policy#REFUSE}, naming the table, its owner and the triggers
     */
    void check(Connection connection, TableName table) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(FOREIGN)) {
            st.setString(1, Identifiers.qualified(table));
            st.setString(2, Identifiers.qualified(table));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String problem = "Target table " + table + " (or a partition of it) belongs to role "
                            + rs.getString(1) + ", which is not a superuser, and has trigger(s) " + rs.getString(2)
                            + " enabled ALWAYS or REPLICA: they fire while the sink applies and run with the rights of"
                            + " the sink's role, a superuser, so the table's owner could act as one";
                    if (policy == Policy.REFUSE) {
                        throw new ConnectException(problem + "; refused (apply.foreign.triggers=refuse): disable or"
                                + " drop the triggers, change the owner, or apply as a role that is not a superuser");
                    }
                    warnings.warn(
                            table.toString(),
                            problem + ". Set apply.foreign.triggers=refuse to stop instead, or apply as a role that is"
                                    + " not a superuser");
                }
            }
        }
    }
}
