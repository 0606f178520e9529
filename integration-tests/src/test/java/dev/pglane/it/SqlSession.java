package dev.pglane.it;

import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One database session that runs explicit transactions, as an application would: statements run in the open
 * transaction until {@link #commit()} or {@link #rollback()}.
 */
final class SqlSession implements AutoCloseable {
    private final Connection connection;

    private SqlSession(Connection connection) {
        this.connection = connection;
    }

    static SqlSession open(PostgresNode node) throws SQLException {
        Connection connection = node.open();
        connection.setAutoCommit(false);
        return new SqlSession(connection);
    }

    /** Runs statements in autocommit mode, each in a transaction of its own (set-up, server settings). */
    static void execute(PostgresNode node, String... statements) throws SQLException {
        execute(node.jdbcUrl(), statements);
    }

    /** As {@link #execute(PostgresNode, String...)}, on a server known by a URL that carries its credentials. */
    static void execute(String jdbcUrl, String... statements) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /** Runs one statement with positional parameters; returns the rows it changed. */
    int exec(String sql, Object... params) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            statement.execute();
            return Math.max(statement.getUpdateCount(), 0);
        }
    }

    /** The first column of the first row of a query. */
    Object queryValue(String sql, Object... params) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = statement.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no row from " + sql);
                }
                return rs.getObject(1);
            }
        }
    }

    /** The open transaction's 32-bit xid, as pglane records carry it (assigns one if the transaction has none). */
    long xid() throws SQLException {
        return ((Number) queryValue("SELECT (txid_current() % 4294967296)::bigint")).longValue();
    }

    void commit() throws SQLException {
        connection.commit();
    }

    void rollback() throws SQLException {
        connection.rollback();
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
