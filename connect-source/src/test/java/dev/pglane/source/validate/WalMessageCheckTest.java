package dev.pglane.source.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.connect.validate.ConfigProblem;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** validate()'s look at who may write logical decoding messages, on a real server, before and after the revoke. */
class WalMessageCheckTest {
    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws IOException, SQLException {
        server = EmbeddedPostgres.builder().start();
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            st.execute("CREATE ROLE pglane_reader LOGIN");
        }
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    private static List<ConfigProblem> run(Connection connection, boolean snapshots) throws SQLException {
        List<ConfigProblem> problems = new ArrayList<>();
        new WalMessageCheck("shop-source", snapshots).run(connection, problems);
        return problems;
    }

    /** Every overload of pg_logical_emit_message, as the server names them. */
    private static String overloads(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(WalMessageCheck.QUERY)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void warnsWhileEveryLoginMayEmitAndRefusesARoleThatCannotWriteItsWatermarks() throws SQLException {
        try (Connection admin = server.getPostgresDatabase().getConnection();
                Statement st = admin.createStatement();
                LogCapture log = LogCapture.start()) {
            assertEquals(List.of(), run(admin, true));
            assertEquals(1, log.warnings().size(), log.lines().toString());
            assertTrue(log.warnings().get(0).contains("every login on the source may call pg_logical_emit_message"));
            assertTrue(log.warnings().get(0).contains("REVOKE EXECUTE ON FUNCTION"));

            String overloads = overloads(admin);
            st.execute("REVOKE EXECUTE ON FUNCTION " + overloads + " FROM PUBLIC");
            try {
                assertEquals(List.of(), run(admin, true), "the superuser keeps it");
                assertEquals(1, log.warnings().size(), "nothing more to warn of after the revoke");

                st.execute("SET ROLE pglane_reader");
                List<ConfigProblem> problems = run(admin, true);
                assertEquals(1, problems.size());
                assertEquals("database.user", problems.get(0).key());
                assertTrue(problems.get(0).message().contains("role pglane_reader may not call"));
                assertEquals(List.of(), run(admin, false), "no snapshot, no watermark to write");
                assertTrue(log.warnings().get(1).contains("role pglane_reader may not call"));
                st.execute("RESET ROLE");
            } finally {
                st.execute("RESET ROLE");
                st.execute("GRANT EXECUTE ON FUNCTION " + overloads + " TO PUBLIC");
            }
        }
    }
}
