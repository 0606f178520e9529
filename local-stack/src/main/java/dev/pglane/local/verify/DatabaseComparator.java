package dev.pglane.local.verify;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Tells whether a target database holds the same rows as a source database, and where it first differs.
 *
 * <p>Each table is first compared by row count and an ordered checksum computed by each server, so equal tables
 * cost one scan per side and no transfer. Only a table whose checksums differ is read row by row, both sides at
 * once in key order with a fetch size, to name the first differing key. "Key order" is the order of the key's
 * text (see {@link KeyedRowMerge}), the same on every server whatever its collation: id 10 comes before id 9.
 *
 * <p>Both sessions render values identically (UTC, ISO dates, shortest exact floats, hex bytea) so that the text
 * of a row depends on its values only, not on either server's defaults.
 */
public final class DatabaseComparator {
    private static final int FETCH_SIZE = 1000;
    private static final List<String> SESSION_SETTINGS = List.of(
            "SET TimeZone TO 'UTC'",
            "SET DateStyle TO 'ISO, YMD'",
            "SET IntervalStyle TO 'postgres'",
            "SET extra_float_digits TO 1",
            "SET bytea_output TO 'hex'");

    private final String sourceJdbcUrl;
    private final String targetJdbcUrl;

    /** URLs that carry their credentials, like {@code PostgresNode#jdbcUrl()}. */
    public DatabaseComparator(String sourceJdbcUrl, String targetJdbcUrl) {
        this.sourceJdbcUrl = sourceJdbcUrl;
        this.targetJdbcUrl = targetJdbcUrl;
    }

    /**
     * Compares every source table (see {@link SourceCatalog}) with the same-named target table.
     *
     * @throws SQLException when a database cannot be reached or the source cannot be read
     */
    public ComparisonReport compare() throws SQLException {
        try (Connection source = open(sourceJdbcUrl);
                Connection target = open(targetJdbcUrl)) {
            List<TableComparison> results = new ArrayList<>();
            for (SourceTable table : SourceCatalog.tablesToCompare(source)) {
                results.add(compare(table, source, target));
                // end both snapshots: a long comparison should not hold locks or old row versions
                source.commit();
                target.commit();
            }
            return new ComparisonReport(results);
        }
    }

    private static TableComparison compare(SourceTable table, Connection source, Connection target)
            throws SQLException {
        Checksum sourceSum = checksum(source, table);
        if (!exists(target, table)) {
            return result(table, sourceSum.rows(), null, null, null);
        }
        Checksum targetSum;
        try {
            targetSum = checksum(target, table);
        } catch (SQLException e) {
            // typically a column that the target lacks; the table can still be counted
            target.rollback();
            return result(table, sourceSum.rows(), count(target, table), null, e.getMessage());
        }
        if (sourceSum.equals(targetSum)) {
            return result(table, sourceSum.rows(), targetSum.rows(), null, null);
        }
        RowDifference difference = firstDifference(table, source, target).orElse(null);
        return result(table, sourceSum.rows(), targetSum.rows(), difference, null);
    }

    private static TableComparison result(
            SourceTable table, long sourceRows, Long targetRows, RowDifference difference, String problem) {
        return new TableComparison(
                table.displayName(), table.keyColumns(), sourceRows, targetRows, difference, problem);
    }

    private record Checksum(long rows, String md5) {}

    private static Checksum checksum(Connection connection, SourceTable table) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(table.checksumQuery())) {
            rs.next();
            return new Checksum(rs.getLong(1), rs.getString(2));
        }
    }

    private static long count(Connection connection, SourceTable table) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT count(*) FROM " + table.qualifiedName())) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static boolean exists(Connection connection, SourceTable table) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            statement.setString(1, table.qualifiedName());
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static Optional<RowDifference> firstDifference(SourceTable table, Connection source, Connection target)
            throws SQLException {
        try (Statement sourceStatement = source.createStatement();
                Statement targetStatement = target.createStatement()) {
            sourceStatement.setFetchSize(FETCH_SIZE);
            targetStatement.setFetchSize(FETCH_SIZE);
            try (ResultSet sourceRows = sourceStatement.executeQuery(table.rowsQuery());
                    ResultSet targetRows = targetStatement.executeQuery(table.rowsQuery())) {
                return KeyedRowMerge.firstDifference(
                        cursor(sourceRows, table.keyWidth()), cursor(targetRows, table.keyWidth()));
            }
        }
    }

    private static RowCursor cursor(ResultSet rows, int keyWidth) {
        return () -> {
            if (!rows.next()) {
                return null;
            }
            List<String> key = new ArrayList<>(keyWidth);
            for (int i = 1; i <= keyWidth; i++) {
                key.add(rows.getString(i));
            }
            return new KeyedRow(key, rows.getString(keyWidth + 1));
        };
    }

    private static Connection open(String jdbcUrl) throws SQLException {
        Connection connection = DriverManager.getConnection(jdbcUrl);
        try {
            // a cursor with a fetch size needs a transaction in pgjdbc; without one it reads the whole table
            connection.setAutoCommit(false);
            connection.setReadOnly(true);
            try (Statement statement = connection.createStatement()) {
                for (String setting : SESSION_SETTINGS) {
                    statement.execute(setting);
                }
            }
            connection.commit();
            return connection;
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
    }
}
