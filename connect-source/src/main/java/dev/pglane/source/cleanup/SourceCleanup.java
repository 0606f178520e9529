package dev.pglane.source.cleanup;

import dev.pglane.connect.config.CleanupCommand;
import dev.pglane.source.DatabaseTables;
import dev.pglane.source.PgSourceConfig;
import dev.pglane.source.reader.PublicationSetup;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;

/**
 * Drops what a deleted (or stopped) pglane source leaves on its server: the replication slot, which would otherwise
 * keep WAL for ever, and the publication if pglane created it (a publication of your own is kept). It refuses while
 * the slot is in use, so it never pulls the slot from under a running task. Run it with the connector's REST JSON:
 *
 * <pre>{@code
 * java -cp "$KAFKA_HOME/libs/*:<plugin.path>/pglane-source/*" dev.pglane.source.cleanup.SourceCleanup source.json
 * }</pre>
 *
 * <p>Exit status 0 when nothing of the connector is left, 1 when something stays (in use, or an error), 2 for a
 * config it cannot read.
 */
public final class SourceCleanup {
    private final PgSourceConfig config;
    private final PrintStream out;

    SourceCleanup(PgSourceConfig config, PrintStream out) {
        this.config = config;
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    /** What {@link #main} does, returning the exit status. */
    public static int run(String[] args, PrintStream out) {
        return CleanupCommand.run(
                "SourceCleanup",
                args,
                out,
                (props, report) -> new SourceCleanup(new PgSourceConfig(props), report).clean());
    }

    /** True when neither the slot nor a publication pglane created is left. */
    boolean clean() throws SQLException {
        try (Connection connection = config.database().connect("pglane-source-cleanup")) {
            return dropSlot(connection) && dropPublication(connection);
        }
    }

    private boolean dropSlot(Connection connection) throws SQLException {
        String slot = config.slotName();
        try (PreparedStatement st = connection.prepareStatement(
                "SELECT active_pid FROM pg_catalog.pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    out.println(
                            "Slot " + slot + ": none on " + config.database().address());
                    return true;
                }
                int pid = rs.getInt(1);
                if (!rs.wasNull()) {
                    out.println("Slot " + slot + " is in use by process " + pid + ": stop or delete the connector"
                            + " first (its task may take a few seconds to let go); nothing was dropped");
                    return false;
                }
            }
        }
        try (PreparedStatement st = connection.prepareStatement("SELECT pg_catalog.pg_drop_replication_slot(?)")) {
            st.setString(1, slot);
            st.execute();
        }
        out.println("Dropped slot " + slot);
        return true;
    }

    private boolean dropPublication(Connection connection) throws SQLException {
        String publication = config.publicationName();
        if (!DatabaseTables.publicationExists(connection, publication)) {
            out.println("Publication " + publication + ": none");
            return true;
        }
        if (!PublicationSetup.createdByPglane(connection, publication)) {
            out.println("Kept publication " + publication + ": pglane did not create it");
            return true;
        }
        try (Statement st = connection.createStatement()) {
            st.execute(
                    "DROP PUBLICATION " + connection.unwrap(PGConnection.class).escapeIdentifier(publication));
        }
        out.println("Dropped publication " + publication + ", which pglane had created");
        return true;
    }
}
