package dev.pglane.connect.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.connect.database.SqlStateClass;
import java.net.UnknownHostException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConnectionProbeTest {
    @ParameterizedTest
    @CsvSource({
        "08001, CONNECTION",
        "08006, CONNECTION",
        "53300, CONNECTION",
        "57P01, CONNECTION",
        "57P02, CONNECTION",
        "57P03, CONNECTION",
        "28P01, AUTHENTICATION",
        "28000, AUTHENTICATION",
        "3D000, UNKNOWN_DATABASE",
        "42501, OTHER"
    })
    void sqlStatesAreClassifiedOnce(String state, SqlStateClass expected) {
        assertEquals(expected, SqlStateClass.of(new SQLException("x", state)));
    }

    @Test
    void missingSqlStateMeansTheServerWasNotReached() {
        assertEquals(SqlStateClass.CONNECTION, SqlStateClass.of(new SQLException("x")));
    }

    @Test
    void genericDriverMessageGetsItsRootCause() {
        SQLException e =
                new SQLException("The connection attempt failed.", "08001", new UnknownHostException("db.invalid"));
        assertEquals("The connection attempt failed. (UnknownHostException: db.invalid)", ConnectionProbe.describe(e));
    }

    @Test
    void specificMessageStaysAsItIs() {
        SQLException e = new SQLException("FATAL: password authentication failed for user \"a\"", "28P01");
        assertEquals("FATAL: password authentication failed for user \"a\"", ConnectionProbe.describe(e));
    }
}
