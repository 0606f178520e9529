package dev.pglane.sink.apply;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A session's prepared statements by SQL text, reused across transactions so that pgjdbc switches
 * them to server-side prepared statements; the least recently used are closed beyond a bound,
 * since multi-row INSERTs of different row counts are different texts.
 */
final class StatementCache implements AutoCloseable {
    /** The bound for single statements. */
    static final int MAX_STATEMENTS = 256;

    private final Connection connection;
    private final int maxStatements;
    private final Map<String, PreparedStatement> statements = new LinkedHashMap<>(64, 0.75f, true);

    StatementCache(Connection connection, int maxStatements) {
        this.connection = connection;
        this.maxStatements = maxStatements;
    }

    PreparedStatement get(String sql) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
            evictBeyondBound();
        }
        return statement;
    }

    private void evictBeyondBound() throws SQLException {
        Iterator<PreparedStatement> eldest = statements.values().iterator();
        while (statements.size() > maxStatements) {
            PreparedStatement statement = eldest.next();
            eldest.remove();
            statement.close();
        }
    }

    @Override
    public void close() {
        for (PreparedStatement statement : statements.values()) {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // The connection is being closed too; nothing is left to release.
            }
        }
        statements.clear();
    }
}
