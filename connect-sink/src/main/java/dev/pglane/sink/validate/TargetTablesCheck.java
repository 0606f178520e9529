package dev.pglane.sink.validate;

import static dev.pglane.sink.PgSinkConfig.AUTO_CREATE;

import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ServerCheck;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;
import dev.pglane.wire.TopicNames;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * With {@code auto.create} off and the change topics listed in {@code topics}, every target table those topics lead
 * to must exist: otherwise the task would fail on the first change of a missing table, after the connector was
 * created. A subscription by {@code topics.regex} names no tables up front; the task reports a missing one then.
 *
 * <p>A change topic is {@code <prefix>.<schema>.<table>} with characters Kafka refuses replaced by {@code _}, so the
 * source names are known only up to that replacement: a target table counts as present when its name, replaced the
 * same way, matches. A topic whose rest does not split into exactly two names is not judged.
 */
final class TargetTablesCheck implements ServerCheck {
    private final TopicNames sourceTopics;
    private final List<String> topics;
    private final TableMapping mapping;

    TargetTablesCheck(TopicNames sourceTopics, List<String> topics, TableMapping mapping) {
        this.sourceTopics = sourceTopics;
        this.topics = topics;
        this.mapping = mapping;
    }

    @Override
    public void run(Connection connection, List<ConfigProblem> problems) throws SQLException {
        Set<TableName> present = targetTables(connection);
        List<String> missing = new ArrayList<>();
        for (String topic : topics) {
            sourceTableOf(topic)
                    .map(source -> mapping.targetOf(source.schema(), source.table()))
                    .filter(target -> !present.contains(sanitized(target)))
                    .ifPresent(target -> missing.add(target + " (topic " + topic + ")"));
        }
        if (!missing.isEmpty()) {
            problems.add(new ConfigProblem(
                    AUTO_CREATE,
                    "Target table(s) " + String.join(", ", missing) + " do not exist; create them or set " + AUTO_CREATE
                            + "=true"));
        }
    }

    /** The source table a change topic carries, as far as its name tells. */
    private Optional<TableName> sourceTableOf(String topic) {
        String prefix = sourceTopics.prefix() + ".";
        if (!topic.startsWith(prefix)
                || topic.equals(sourceTopics.transactionsTopic())
                || topic.equals(sourceTopics.messagesTopic())) {
            return Optional.empty();
        }
        String[] names = topic.substring(prefix.length()).split("\\.", -1);
        if (names.length != 2 || names[0].isEmpty() || names[1].isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new TableName(names[0], names[1]));
    }

    private static TableName sanitized(TableName table) {
        return new TableName(TopicNames.sanitize(table.schema()), TopicNames.sanitize(table.table()));
    }

    /** Every table, view excluded, of the target database, its names written as a change topic would write them. */
    private static Set<TableName> targetTables(Connection connection) throws SQLException {
        Set<TableName> tables = new HashSet<>();
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT n.nspname, c.relname FROM pg_class c"
                        + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p')")) {
            while (rs.next()) {
                tables.add(sanitized(new TableName(rs.getString(1), rs.getString(2))));
            }
        }
        return tables;
    }
}
