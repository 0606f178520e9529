package dev.pglane.sink;

import static dev.pglane.docs.ValidationErrors.assertOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.connect.logging.LogCapture;
import dev.pglane.docs.ValidationErrors;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** validate() against a real PostgreSQL: each problem on the right key, with the promised message. */
class PgSinkConnectorValidateTest {
    private static EmbeddedPostgres server;

    @BeforeAll
    static void startServer() throws IOException, SQLException {
        server = EmbeddedPostgres.builder().start();
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            st.execute("CREATE ROLE app_user LOGIN");
            st.execute("CREATE ROLE granted_user LOGIN");
            st.execute("GRANT SET ON PARAMETER session_replication_role TO granted_user");
            st.execute("GRANT CREATE ON SCHEMA public TO granted_user");
            st.execute("CREATE ROLE origin_user LOGIN");
            st.execute("GRANT granted_user TO origin_user");
            st.execute("GRANT SET ON PARAMETER session_replication_role TO origin_user");
            st.execute("GRANT EXECUTE ON FUNCTION pg_replication_origin_create(text),"
                    + " pg_replication_origin_session_setup(text) TO origin_user");
            st.execute("CREATE ROLE select_only LOGIN");
            st.execute("GRANT SET ON PARAMETER session_replication_role TO select_only");
            st.execute("CREATE SCHEMA progress");
            st.execute("GRANT USAGE ON SCHEMA progress TO select_only");
            st.execute("CREATE TABLE progress.pglane_progress (sink_name text, source_server text)");
            st.execute("GRANT SELECT ON progress.pglane_progress TO select_only");
        }
    }

    @AfterAll
    static void stopServer() throws IOException {
        server.close();
    }

    static Map<String, String> config(String user) {
        Map<String, String> props = new HashMap<>();
        props.put("name", "validate-test");
        props.put("topics.regex", "pglane\\..*");
        props.put(DatabaseSettings.HOST, "127.0.0.1");
        props.put(DatabaseSettings.PORT, Integer.toString(server.getPort()));
        props.put(DatabaseSettings.NAME, "postgres");
        props.put(DatabaseSettings.USER, user);
        props.put(DatabaseSettings.SSLMODE, "disable");
        props.put(PgSinkConfig.SOURCE_TOPIC_PREFIX, "pglane");
        return props;
    }

    static Map<String, List<String>> errors(Map<String, String> props) {
        return ValidationErrors.byKey(new PgSinkConnector().validate(props));
    }

    @Test
    void superuserHasNoErrorsButIsWarnedAbout() {
        try (LogCapture log = LogCapture.start()) {
            assertEquals(Map.of(), errors(config("postgres")));
            assertEquals(1, superuserWarnings(log).size(), log.lines()::toString);
            assertTrue(superuserWarnings(log).get(0).contains("applies as superuser postgres"), log.lines()::toString);
        }
    }

    /**
     * A table group that takes in a topic another sink of the same source applies to this target is refused, naming
     * that sink; one that shares nothing with the other groups, and a sink of another source, are not.
     */
    @Test
    void aTableGroupMayNotTakeInATopicAnotherSinkAppliesToTheSameTarget() throws SQLException {
        try (Connection c = server.getPostgresDatabase().getConnection();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA groups");
            st.execute("CREATE TABLE groups.progress (sink_name text NOT NULL, source_server text NOT NULL,"
                    + " end_lsn pg_lsn NOT NULL, xid bigint NOT NULL, table_group text,"
                    + " PRIMARY KEY (sink_name, source_server))");
            st.execute("INSERT INTO groups.progress VALUES ('orders', 'pglane', '0/0', 0,"
                    + " 'topics pglane.transactions,pglane.public.orders'),"
                    + " ('items', 'pglane', '0/0', 0, 'topics.regex pglane\\.public\\.item.*'),"
                    + " ('elsewhere', 'other', '0/0', 0, NULL)");
        }
        Map<String, String> props = config("postgres");
        props.remove("topics.regex");
        props.put(PgSinkConfig.PROGRESS_TABLE, "groups.progress");
        props.put(TableGroupSettings.APPLY_SCOPE, "consumed_topics");
        props.put(PgSinkConfig.AUTO_CREATE, "true");
        props.put("topics", "pglane.transactions,pglane.public.customers");
        assertEquals(Map.of(), errors(props), "the marker topic is every group's");

        props.put("topics", "pglane.transactions,pglane.public.customers,pglane.public.orders,pglane.public.items");
        Map<String, List<String>> errors = errors(props);
        assertOn(errors, "topics", "Sink orders applies pglane.public.orders of this group to the same target");
        assertOn(errors, "topics", "Sink items applies pglane.public.items of this group");
        assertOn(errors, "topics", "DELETE FROM \"groups\".\"progress\" WHERE sink_name = 'items'");
        assertEquals(2, errors.get("topics").size(), errors::toString);

        props.remove("topics");
        props.put("topics.regex", "pglane\\.(transactions|public\\.orders)");
        assertOn(errors(props), "topics.regex", "Sink orders applies pglane.public.orders of this group");
    }

    @Test
    void grantedRoleHasNoErrorsAndNoSuperuserWarning() {
        try (LogCapture log = LogCapture.start()) {
            assertEquals(Map.of(), errors(config("origin_user")));
            assertEquals(List.of(), superuserWarnings(log));
        }
    }

    @Test
    void applyingUnderOriginsNeedsExecuteOnTheTwoFunctionsItCalls() {
        Map<String, List<String>> errors = errors(config("granted_user"));
        assertOn(
                errors,
                PgSinkConfig.APPLY_ORIGIN,
                "Role 'granted_user' may not use replication origins: it lacks EXECUTE on"
                        + " pg_replication_origin_create(text), pg_replication_origin_session_setup(text);");
        assertOn(errors, PgSinkConfig.APPLY_ORIGIN, "set apply.origin=false");
        Map<String, String> untagged = config("granted_user");
        untagged.put(PgSinkConfig.APPLY_ORIGIN, "false");
        assertEquals(Map.of(), errors(untagged));
    }

    private static List<String> superuserWarnings(LogCapture log) {
        return log.warnings().stream()
                .filter(l -> l.contains("applies as superuser"))
                .toList();
    }

    @Test
    void roleThatMayNotSetReplicationRoleIsReportedOnUser() {
        Map<String, List<String>> errors = errors(config("app_user"));
        assertOn(
                errors,
                DatabaseSettings.USER,
                "GRANT SET ON PARAMETER session_replication_role TO app_user, or make the role a superuser");
        assertOn(
                errors,
                PgSinkConfig.PROGRESS_TABLE,
                "progress.table 'public.pglane_progress': role 'app_user' may not create it: it needs CREATE on"
                        + " schema public");
    }

    @Test
    void replicationOriginsNeedExecute() {
        Map<String, String> props = config("granted_user");
        props.put(PgSinkConfig.PROGRESS_STORE, "replication_origin");
        Map<String, List<String>> errors = errors(props);
        assertOn(errors, PgSinkConfig.PROGRESS_STORE, "Role 'granted_user' may not use replication origins");
        assertOn(errors, PgSinkConfig.PROGRESS_STORE, "pg_replication_origin_create(text)");
    }

    @Test
    void oneOfTheProgressPrivilegesIsNotEnough() {
        Map<String, String> props = config("select_only");
        props.put(PgSinkConfig.PROGRESS_TABLE, "progress.pglane_progress");
        assertOn(
                errors(props),
                PgSinkConfig.PROGRESS_TABLE,
                "progress.table 'progress.pglane_progress': role 'select_only' needs SELECT, INSERT and UPDATE on it");
    }

    @Test
    void progressTableInMissingSchema() {
        Map<String, String> props = config("postgres");
        props.put(PgSinkConfig.PROGRESS_TABLE, "nowhere.progress");
        assertOn(
                errors(props),
                PgSinkConfig.PROGRESS_TABLE,
                "progress.table 'nowhere.progress': schema 'nowhere' does not exist in database 'postgres'");
    }

    @Test
    void closedPortIsReportedOnHostAndPort() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Map<String, String> props = config("postgres");
        props.put(DatabaseSettings.PORT, Integer.toString(port));
        Map<String, List<String>> errors = errors(props);
        String expected = "Cannot connect to PostgreSQL at 127.0.0.1:" + port + ": ";
        assertOn(errors, DatabaseSettings.HOST, expected);
        assertOn(errors, DatabaseSettings.PORT, expected);
    }

    /**
     * Pasted into a URL, this host would reach the test server (its query sets the port too) with sslmode=disable
     * whatever database.sslmode says, because URL parameters outrank pgjdbc's properties: validate() would pass and
     * verify_full would mean nothing. It is a field error on database.host instead, and nothing connects.
     */
    @Test
    void hostThatCarriesDriverPropertiesIsRefusedOnHost() {
        Map<String, String> props = config("postgres");
        String injected = "127.0.0.1/postgres?PGPORT=" + server.getPort()
                + "&sslfactory=org.postgresql.ssl.NonValidatingFactory&sslmode=disable&ignored=";
        props.put(DatabaseSettings.HOST, injected);
        props.put(DatabaseSettings.SSLMODE, "verify_full");
        Map<String, List<String>> errors = errors(props);
        assertEquals(Set.of(DatabaseSettings.HOST), errors.keySet(), errors.toString());
        assertOn(
                errors,
                DatabaseSettings.HOST,
                "Invalid value " + injected + " for configuration database.host: must be a host name");
    }

    @Test
    void unknownRoleIsReportedOnUserAndPassword() {
        Map<String, List<String>> errors = errors(config("nobody"));
        assertOn(errors, DatabaseSettings.USER, "PostgreSQL rejected user 'nobody': ");
        assertOn(errors, DatabaseSettings.PASSWORD, "PostgreSQL rejected user 'nobody': ");
    }

    @Test
    void missingDatabaseIsReportedOnName() {
        Map<String, String> props = config("postgres");
        props.put(DatabaseSettings.NAME, "nope");
        assertOn(
                errors(props),
                DatabaseSettings.NAME,
                "Database 'nope' does not exist on 127.0.0.1:" + server.getPort());
    }
}
