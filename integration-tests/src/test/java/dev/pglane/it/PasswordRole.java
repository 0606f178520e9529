package dev.pglane.it;

import dev.pglane.local.stack.PostgresNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * A role that must give its password. The test servers trust every local connection, so the role gets
 * {@code scram-sha-256} lines of its own at the top of pg_hba.conf, where they match first.
 */
final class PasswordRole {
    private PasswordRole() {}

    /** Creates (or re-creates) {@code role} with {@code password}, REPLICATION, and password authentication. */
    static void create(PostgresNode server, String role, String password) throws SQLException, IOException {
        SqlSession.execute(
                server,
                "DROP ROLE IF EXISTS " + role,
                "CREATE ROLE " + role + " LOGIN REPLICATION PASSWORD '" + password + "'");
        Path hba = server.dataDirectory().resolve("pg_hba.conf");
        String lines = "host all " + role + " 127.0.0.1/32 scram-sha-256\n" + "host replication " + role
                + " 127.0.0.1/32 scram-sha-256\n";
        String current = Files.readString(hba);
        if (!current.startsWith(lines)) {
            Files.writeString(hba, lines + current);
        }
        SqlSession.execute(server, "SELECT pg_reload_conf()");
    }
}
