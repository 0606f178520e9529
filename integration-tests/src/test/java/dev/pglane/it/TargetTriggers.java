package dev.pglane.it;

import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Triggers that exist on the target only and fire for the sink's changes too ({@code ENABLE ALWAYS}: the sink
 * applies with {@code session_replication_role = replica}, which skips ordinary triggers). An insert into {@code a}
 * sleeps half a second, then counts itself in a shared row; an insert into {@code b} counts itself at once. Applied
 * in parallel, b's transaction takes the row first and then waits for its turn to commit behind a's, which waits
 * for the row: a commit-order deadlock that only the sink can see.
 */
final class TargetTriggers {
    private TargetTriggers() {}

    /** The counter table, its one row, and the triggers on {@code schema.a} and {@code schema.b}. */
    static List<String> countingTriggers(String schema) {
        return List.of(
                "CREATE TABLE " + schema + ".counter (id integer PRIMARY KEY, n bigint NOT NULL, seen text NOT NULL)",
                "INSERT INTO " + schema + ".counter VALUES (1, 0, '')",
                countFunction(schema, "count_a", "PERFORM pg_sleep(0.5);", "a"),
                countFunction(schema, "count_b", "", "b"),
                "CREATE TRIGGER count_a AFTER INSERT ON " + schema + ".a FOR EACH ROW EXECUTE FUNCTION " + schema
                        + ".count_a()",
                "CREATE TRIGGER count_b AFTER INSERT ON " + schema + ".b FOR EACH ROW EXECUTE FUNCTION " + schema
                        + ".count_b()",
                "ALTER TABLE " + schema + ".a ENABLE ALWAYS TRIGGER count_a",
                "ALTER TABLE " + schema + ".b ENABLE ALWAYS TRIGGER count_b");
    }

    private static String countFunction(String schema, String function, String first, String mark) {
        return "CREATE FUNCTION " + schema + "." + function + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                + first + " UPDATE " + schema + ".counter SET n = n + 1, seen = seen || '" + mark
                + "' WHERE id = 1; RETURN NULL; END $$";
    }

    /** The counter row: how many inserts counted themselves, and their marks in commit order. */
    static List<Object> counter(PostgresNode target, String schema) throws SQLException {
        try (Connection connection = target.open();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT n, seen FROM " + schema + ".counter WHERE id = 1")) {
            rs.next();
            return List.of(rs.getLong(1), rs.getString(2));
        }
    }
}
