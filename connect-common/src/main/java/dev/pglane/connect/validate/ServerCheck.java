package dev.pglane.connect.validate;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** One check that validation runs on a live connection to the configured server. */
@FunctionalInterface
public interface ServerCheck {
    /** Adds what is wrong to {@code problems}, each on the key the user must change. */
    void run(Connection connection, List<ConfigProblem> problems) throws SQLException;
}
