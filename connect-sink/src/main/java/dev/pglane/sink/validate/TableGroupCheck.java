package dev.pglane.sink.validate;

import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ServerCheck;
import dev.pglane.sink.admit.ConsumedTopics;
import dev.pglane.sink.admit.NeighbourSinks;
import dev.pglane.sink.progress.ProgressTable;
import dev.pglane.sink.progress.SourceIdentityCheck;
import dev.pglane.sink.target.Identifiers;
import dev.pglane.sink.target.TableName;
import dev.pglane.wire.TopicNames;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A table group ({@code apply.scope=consumed_topics}) must not take in a topic another sink of the same source
 * applies to this target, as the progress table records the other sinks' groups: two sinks writing one table each
 * apply it in their own time, and its rows can step back to an older state while one trails the other. Checked where
 * names tell (lists against lists and regexes, every topic against a sink of whole transactions); two regexes meet
 * only in topics' names, which the task warns of when it sees them.
 */
final class TableGroupCheck implements ServerCheck {
    private final String key;
    private final String sinkName;
    private final TopicNames topics;
    private final String sourceServer;
    private final TableName table;
    private final ConsumedTopics group;

    /**
     * @param key the key the group is declared by, {@code topics} or {@code topics.regex}
     */
    TableGroupCheck(String key, String sinkName, TopicNames topics, TableName table, ConsumedTopics group) {
        this.key = key;
        this.sinkName = sinkName;
        this.topics = topics;
        this.sourceServer = topics.prefix();
        this.table = table;
        this.group = group;
    }

    @Override
    public void run(Connection connection, List<ConfigProblem> problems) throws SQLException {
        if (!recordsGroups(connection)) {
            return; // no table yet, or one of an earlier version: no sink has recorded a group in it
        }
        NeighbourSinks neighbours = new ProgressTable(
                        table, sinkName, sourceServer, new SourceIdentityCheck(sourceServer), group)
                .neighbours(connection);
        for (Map.Entry<NeighbourSinks.Neighbour, String> overlap : neighbours
                .overlapping(group, Set.of(topics.transactionsTopic(), topics.messagesTopic()))
                .entrySet()) {
            String other = overlap.getKey().sink();
            problems.add(new ConfigProblem(
                    key,
                    "Sink " + other + " applies " + overlap.getValue() + " of this group to the same target (its "
                            + overlap.getKey() + ", recorded in progress table " + table + " for source "
                            + sourceServer + "): two sinks writing one table can move its rows back to an older"
                            + " state while one trails the other. Give each topic to one group; if sink " + other
                            + " is gone, delete its row: DELETE FROM " + Identifiers.qualified(table)
                            + " WHERE sink_name = '"
                            + other.replace("'", "''") + "' AND source_server = '"
                            + sourceServer.replace("'", "''") + "'"));
        }
    }

    private boolean recordsGroups(Connection connection) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("SELECT EXISTS (SELECT 1 FROM pg_attribute a"
                + " WHERE a.attrelid = pg_catalog.to_regclass(?) AND a.attname = 'table_group'"
                + " AND NOT a.attisdropped)")) {
            st.setString(1, Identifiers.qualified(table));
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }
}
