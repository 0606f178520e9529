package dev.pglane.sink.progress;

import dev.pglane.sink.admit.ConsumedTopics;
import dev.pglane.sink.admit.NeighbourSinks;
import dev.pglane.sink.target.Identifiers;
import dev.pglane.sink.target.TableName;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Progress in a table: one row per (sink name, source server), updated by every applied transaction
 * inside its own commit. Workers write it only on their commit turn, after the previous transaction
 * committed, so they never wait on each other's row lock; the write and the COMMIT share one round trip.
 *
 * <p>The write is fenced twice, at no more cost than the plain upsert, and a fenced write fails and takes its whole
 * transaction down with it:
 *
 * <ul>
 *   <li>by owner: each instance of the task {@link #claim claims} the row when it starts, which raises the row's
 *       {@code owner_epoch}, and writes only while the row still carries its own epoch. A zombie (the instance an
 *       earlier assignment left running on a worker cut off from its group) then commits nothing after its
 *       replacement started, even transactions the replacement has not reached yet: the replacement never finds
 *       its way taken and goes on alone.
 *   <li>by position: the write moves the stored end LSN only forward. A second task that claimed nothing newer (the
 *       same config in a second Connect cluster, started earlier) applies transactions this task already applied;
 *       its write finds the row at or past its own position, so nothing is applied twice and the position never
 *       moves back.
 * </ul>
 *
 * <p>The row lock serialises the writes, and PostgreSQL re-checks both conditions on the row the first one committed.
 *
 * <p>The role needs only SELECT, INSERT and UPDATE on an existing table; CREATE on its schema only if the table
 * is missing, and ownership only to add the columns of a newer version to a table an older one created.
 */
public final class ProgressTable implements ProgressLog {
    /** Appears in the error a fenced write raises, so that it can be told from any other failure. */
    static final String FENCED = "pglane-fenced";

    /** The columns, in table order, with their definitions: what an existing table must have. */
    private static final List<String[]> COLUMNS = List.of(
            new String[] {"sink_name", "text NOT NULL"},
            new String[] {"source_server", "text NOT NULL"},
            new String[] {"end_lsn", "pg_catalog.pg_lsn NOT NULL"},
            new String[] {"commit_ts", "timestamp with time zone"},
            new String[] {"xid", "bigint NOT NULL"},
            new String[] {"applied_at", "timestamp with time zone NOT NULL DEFAULT pg_catalog.now()"},
            new String[] {"source_system_id", "text"},
            new String[] {"source_timeline", "bigint"},
            new String[] {"owner_epoch", "bigint NOT NULL DEFAULT 0"},
            new String[] {"table_group", "text"});

    private final TableName name;
    private final String table;
    private final String sinkName;
    private final String sourceServer;
    private final SourceIdentityCheck identity;
    private final ConsumedTopics group;
    private final String recordAndCommit;
    /** The row's {@code owner_epoch} this instance claimed; 0 until it claims. */
    private volatile long epoch;

    /**
     * @param table the progress table ({@code progress.table})
     * @param sinkName the connector name
     * @param sourceServer the source's topic prefix, so one sink could follow several sources
     * @param identity the source server the applied transactions come from, written with each of them
     * @param group the topics the sink applies as a table group, recorded so that other sinks can tell theirs apart;
     *     null when it applies whole transactions
     */
    public ProgressTable(
            TableName table, String sinkName, String sourceServer, SourceIdentityCheck identity, ConsumedTopics group) {
        this.name = table;
        this.group = group;
        this.table = Identifiers.qualified(table);
        this.sinkName = sinkName;
        this.sourceServer = sourceServer;
        this.identity = identity;
        // A fenced write must fail, not update nothing, or the COMMIT sent with it would commit the changes. Plain
        // SQL cannot raise an error, and a function would need CREATE where the role has none: the ELSE branch
        // casts a text that is no LSN, and it depends on the stored row, so the planner cannot evaluate it early.
        // pgjdbc keeps the statement prepared on the server per connection after a few uses.
        this.recordAndCommit = "INSERT INTO " + this.table + " AS p (sink_name, source_server, end_lsn, commit_ts,"
                + " xid, applied_at, source_system_id, source_timeline, owner_epoch)"
                + " VALUES (?, ?, ?, ?, ?, pg_catalog.now(), ?, ?, ?)"
                + " ON CONFLICT (sink_name, source_server) DO UPDATE SET end_lsn = CASE"
                + " WHEN p.owner_epoch > excluded.owner_epoch THEN ('" + FENCED + ": a newer instance of the task"
                + " claimed the row (owner epoch ' || p.owner_epoch::text || ', this instance''s ' ||"
                + " excluded.owner_epoch::text || ')')::pg_catalog.pg_lsn"
                + " WHEN p.end_lsn < excluded.end_lsn THEN excluded.end_lsn ELSE ('" + FENCED + ": the stored end LSN"
                + " ' || p.end_lsn::text || ' is not below ' || excluded.end_lsn::text)::pg_catalog.pg_lsn END,"
                + " owner_epoch = excluded.owner_epoch,"
                + " commit_ts = excluded.commit_ts, xid = excluded.xid, applied_at = excluded.applied_at,"
                + " source_system_id = COALESCE(excluded.source_system_id, p.source_system_id),"
                + " source_timeline = COALESCE(excluded.source_timeline, p.source_timeline); COMMIT";
    }

    /** The table as configured, for messages. */
    public TableName name() {
        return name;
    }

    @Override
    public void prepare(Connection connection) throws SQLException {
        List<String> present = presentColumns(connection);
        if (present.isEmpty()) {
            create(connection);
        } else {
            addMissingColumns(connection, present);
        }
        // with the group from the start: another sink's validate() may read the row before this task claims it
        try (PreparedStatement st = connection.prepareStatement("INSERT INTO " + table
                + " (sink_name, source_server, end_lsn, xid, table_group) VALUES (?, ?, '0/0', 0, ?)"
                + " ON CONFLICT DO NOTHING")) {
            st.setString(1, sinkName);
            st.setString(2, sourceServer);
            st.setString(3, declaredGroup());
            st.executeUpdate();
        }
    }

    /** The table's columns, empty if there is no such table: checked first, so no DDL runs when none is needed. */
    private List<String> presentColumns(Connection connection) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement("SELECT a.attname FROM pg_attribute a"
                + " JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ? AND a.attnum > 0 AND NOT a.attisdropped")) {
            st.setString(1, name.schema());
            st.setString(2, name.table());
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
            }
        }
        return columns;
    }

    private void create(Connection connection) throws SQLException {
        StringBuilder sql =
                new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(table).append(" (");
        for (String[] column : COLUMNS) {
            sql.append(Identifiers.quote(column[0]))
                    .append(' ')
                    .append(column[1])
                    .append(", ");
        }
        sql.append("PRIMARY KEY (sink_name, source_server))");
        try (PreparedStatement st = connection.prepareStatement(sql.toString())) {
            st.execute();
        }
    }

    private void addMissingColumns(Connection connection, List<String> present) throws SQLException {
        for (String[] column : COLUMNS) {
            if (present.contains(column[0])) {
                continue;
            }
            String sql = "ALTER TABLE " + table + " ADD COLUMN IF NOT EXISTS " + Identifiers.quote(column[0]) + " "
                    + column[1].replace(" NOT NULL", "");
            try (PreparedStatement st = connection.prepareStatement(sql)) {
                st.execute();
            } catch (SQLException e) {
                throw new SQLException(
                        "The progress table " + name + " lacks column " + column[0] + " and this role cannot add it ("
                                + e.getMessage() + "); run " + sql + " as its owner",
                        e.getSQLState(),
                        e);
            }
        }
    }

    /**
     * Raises the row's {@code owner_epoch} and reads the position in one statement, so no commit of an earlier instance
     * falls between the two: one that holds the row lock now commits first and is in the position read, any later
     * one is fenced. A row deleted meanwhile reads as no position; the first write inserts it with this epoch.
     */
    @Override
    public AppliedPosition claim(Connection connection) throws SQLException {
        String sql = "UPDATE " + table + " SET owner_epoch = COALESCE(owner_epoch, 0) + 1, table_group = ?"
                + " WHERE sink_name = ? AND source_server = ?"
                + " RETURNING end_lsn::text, commit_ts, xid, source_system_id, source_timeline, owner_epoch";
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            st.setString(1, declaredGroup());
            st.setString(2, sinkName);
            st.setString(3, sourceServer);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return AppliedPosition.NONE;
                }
                epoch = rs.getLong(6);
                Lsn lsn = Lsn.parse(rs.getString(1));
                OffsetDateTime commit = rs.getObject(2, OffsetDateTime.class);
                long commitTsUs = commit == null ? 0L : microsSinceEpoch(commit.toInstant());
                SourceIdentity source = SourceIdentity.of(rs.getString(4), (Long) rs.getObject(5));
                return lsn.isValid()
                        ? new AppliedPosition(lsn, commitTsUs, rs.getLong(3), source)
                        : AppliedPosition.NONE.withSource(source);
            }
        }
    }

    /** The group as the {@code table_group} column holds it: null for whole transactions. */
    private String declaredGroup() {
        return group == null ? null : group.toString();
    }

    /** The other sinks with a row for this source, and their table groups. */
    @Override
    public NeighbourSinks neighbours(Connection connection) throws SQLException {
        List<NeighbourSinks.Neighbour> others = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement("SELECT sink_name, table_group FROM " + table
                + " WHERE source_server = ? AND sink_name <> ? ORDER BY sink_name")) {
            st.setString(1, sourceServer);
            st.setString(2, sinkName);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String declared = rs.getString(2);
                    others.add(new NeighbourSinks.Neighbour(
                            rs.getString(1), declared == null ? null : ConsumedTopics.parse(declared)));
                }
            }
        }
        return new NeighbourSinks("progress table " + name + " for source " + sourceServer, others);
    }

    @Override
    public void setUpSession(Connection connection, int worker) {
        // A table needs no per-session state.
    }

    /**
     * An upsert, so a progress row deleted while the sink runs comes back with the next commit rather than
     * stopping the sink; pgjdbc sends both statements in one round trip and skips COMMIT if the upsert fails.
     *
     * @throws SQLException also when a newer instance claimed the row, or it already stands at or past {@code
     *     position}: another task applies the same transactions; nothing of this transaction is committed then
     */
    @Override
    public void recordAndCommit(Connection connection, AppliedPosition position) throws SQLException {
        SourceIdentity source = identity.known();
        try (PreparedStatement st = connection.prepareStatement(recordAndCommit)) {
            st.setString(1, sinkName);
            st.setString(2, sourceServer);
            st.setObject(3, position.endLsn().toString(), Types.OTHER);
            st.setObject(4, OffsetDateTime.ofInstant(instantOfMicros(position.commitTsUs()), ZoneOffset.UTC));
            st.setLong(5, position.xid());
            st.setString(6, source.systemId());
            st.setObject(7, source.timeline(), Types.BIGINT);
            st.setLong(8, epoch);
            st.execute();
        } catch (SQLException e) {
            if (String.valueOf(e.getMessage()).contains(FENCED)) {
                throw new SQLException(
                        "Another task applies to this target as sink " + sinkName + ": the progress row of source "
                                + sourceServer + " in " + name + " refused end LSN " + position.endLsn()
                                + ", which this task was about to record (" + fencedDetail(e) + "); nothing of it was"
                                + " committed. A task left over from a rebalance stops here; otherwise run one task per"
                                + " sink name (check other Connect clusters)",
                        e.getSQLState(),
                        e);
            }
            throw e;
        }
    }

    /** {@code the stored end LSN 0/5000 is not below 0/4000}, out of the server's message. */
    private static String fencedDetail(SQLException e) {
        String message = String.valueOf(e.getMessage());
        int start = message.indexOf(FENCED + ": ") + FENCED.length() + 2;
        int end = message.indexOf('"', start);
        return end > start ? message.substring(start, end) : message;
    }

    private static Instant instantOfMicros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    private static long microsSinceEpoch(Instant instant) {
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1000L;
    }
}
