package dev.pglane.connect.database;

import java.sql.SQLException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/** What a failed PostgreSQL call means, decided once from its SQLState. */
public enum SqlStateClass {
    /**
     * The server could not be reached, refused the session, or ended it: class 08, too many connections
     * (53300), shutdown or restart (57P01, 57P02), still starting (57P03), or no SQLState at all.
     */
    CONNECTION,
    /** Wrong password, unknown role, or no pg_hba.conf entry (28P01, 28000). */
    AUTHENTICATION,
    /** The database does not exist (3D000). */
    UNKNOWN_DATABASE,
    /** Anything else: a statement failed on a working session. */
    OTHER;

    public static SqlStateClass of(SQLException e) {
        String state = e.getSQLState();
        if (state == null || state.startsWith("08")) {
            return CONNECTION;
        }
        return switch (state) {
            case "28P01", "28000" -> AUTHENTICATION;
            case "3D000" -> UNKNOWN_DATABASE;
            case "53300", "57P01", "57P02", "57P03" -> CONNECTION;
            default -> OTHER;
        };
    }

    /**
     * The exception a task throws for a failed catalog read: retriable when the connection failed (the task
     * reconnects), otherwise final.
     */
    public static ConnectException failure(String problem, SQLException e) {
        return of(e) == CONNECTION ? new RetriableException(problem, e) : new ConnectException(problem, e);
    }
}
