package dev.pglane.sink.target;

import dev.pglane.sink.PgSinkConfig;
import dev.pglane.wire.types.ColumnParameters;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A key the source has and the target table lacks: {@code pgbench -i} and many migration tools create a table, load
 * it, then add its primary key, so a sink that created the table from the first rows made it without one, and every
 * later update and delete of the table scans it whole. With {@code auto.evolve} the sink adds the source's key as the
 * target's primary key (in the caller's transaction, once per table); without it, or if the target's rows do not
 * allow it, it warns once per table with the statement to run. A target with a key of its own (a primary key or a
 * unique index) is left as it is.
 */
final class KeyFromSource {
    private static final Logger log = LoggerFactory.getLogger(KeyFromSource.class);

    private final boolean autoEvolve;
    /** Tables already warned of, bounded; the workers share this instance. */
    private final WarnOnce warnings = new WarnOnce(log);

    KeyFromSource(boolean autoEvolve) {
        this.autoEvolve = autoEvolve;
    }

    /**
     * Gives {@code current} the key {@code rowSchema} names, if it has none, or warns.
     *
     * @param source what needs the key, for the log: a record and its source table
     * @return true if DDL ran, so the caller must read the table again
     */
    boolean carry(Connection connection, TargetTable current, Schema rowSchema, String source) throws SQLException {
        List<String> key = sourceKey(rowSchema);
        if (key.isEmpty()
                || !current.identityKey().isEmpty()
                || key.stream().anyMatch(column -> current.column(column).isEmpty())) {
            return false;
        }
        String table = Identifiers.qualified(current.name());
        String alter = "ALTER TABLE " + table + " ADD PRIMARY KEY (" + Identifiers.columnList(key) + ")";
        String scans = "Target table " + current.name() + " has no primary key or unique index, but the source keys its"
                + " rows by (" + String.join(", ", key) + ") (" + source + "): every update and delete of it scans"
                + " the whole table";
        if (!autoEvolve) {
            warnings.warn(
                    table,
                    scans + "; run " + alter + ", or set " + PgSinkConfig.AUTO_EVOLVE
                            + "=true to have the sink add it");
            return false;
        }
        // a second worker that needs the key too waits here, then finds the one the first added
        execute(connection, "LOCK TABLE " + table + " IN SHARE ROW EXCLUSIVE MODE");
        if (hasPrimaryKey(connection, table)) {
            return true;
        }
        Savepoint before = connection.setSavepoint();
        try {
            execute(connection, alter);
        } catch (SQLException e) {
            connection.rollback(before);
            warnings.warn(
                    table,
                    scans + "; auto.evolve could not add the key (" + e.getMessage() + "): fix the rows" + " and run "
                            + alter);
            return false;
        }
        connection.releaseSavepoint(before);
        log.info("Gave {} the key its source table has ({}): {}", current.name(), source, alter);
        return true;
    }

    /**
     * The replica identity columns, unless every column is one: that is REPLICA IDENTITY FULL, which identifies rows
     * but is no key.
     */
    static List<String> sourceKey(Schema rowSchema) {
        List<String> key = rowSchema.fields().stream()
                .filter(f -> ColumnParameters.isKey(f.schema()))
                .map(Field::name)
                .toList();
        return key.size() == rowSchema.fields().size() ? List.of() : key;
    }

    private static boolean hasPrimaryKey(Connection connection, String table) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(
                "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_index WHERE indrelid = ?::pg_catalog.regclass"
                        + " AND indisprimary)")) {
            st.setString(1, table);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute(sql);
        }
    }
}
