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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.postgresql.PGConnection;

/**
 * Drops what a deleted (or stopped) pglane source leaves on its server: the replication slot, which would otherwise
 * keep WAL for ever, and the publication if pglane created it (a publication of your own is kept). Run it with the
 * connector's REST JSON:
 *
 * <pre>{@code
 * java -cp "$KAFKA_HOME/libs/*:<plugin.path>/pglane-source/*" dev.pglane.source.cleanup.SourceCleanup source.json
 * }</pre>
 *
 * <p>It drops only what can be the connector's own:
 *
 * <ul>
 *   <li>the slot only if it is a logical slot of {@code pgoutput} on the connector's database and no process uses
 *       it: a slot of that name that is physical, another plugin's or another database's is someone else's;
 *   <li>the publication only while no other {@code pgoutput} slot exists on the database. The server keeps no record
 *       of which publication a slot streams (a walsender names it in START_REPLICATION, and neither the slot nor
 *       {@code pg_stat_replication} shows it), so any other pgoutput slot, active or not, may be another pglane
 *       source (or a subscription) that reads this publication and would fail without it. The slot is dropped, the
 *       publication kept, and the other slots named; once they are checked, {@value #FORCE} (before the file) drops
 *       it all the same.
 * </ul>
 *
 * <p>Exit status 0 when nothing of the connector is left, 1 when something stays (in use, someone else's, or an
 * error), 2 for a config it cannot read.
 */
public final class SourceCleanup {
    /** The argument that drops a pglane-created publication although other pgoutput slots exist. */
    static final String FORCE = "--force-publication";

    private static final String PGOUTPUT = "pgoutput";

    private final PgSourceConfig config;
    private final PrintStream out;
    private final boolean forcePublication;

    SourceCleanup(PgSourceConfig config, PrintStream out, boolean forcePublication) {
        this.config = config;
        this.out = out;
        this.forcePublication = forcePublication;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    /** What {@link #main} does, returning the exit status. */
    public static int run(String[] args, PrintStream out) {
        boolean force = args.length > 0 && args[0].equals(FORCE);
        String[] rest = force ? Arrays.copyOfRange(args, 1, args.length) : args;
        return CleanupCommand.run(
                "SourceCleanup [" + FORCE + "]",
                rest,
                out,
                (props, report) -> new SourceCleanup(new PgSourceConfig(props), report, force).clean());
    }

    /** True when neither the slot nor a publication pglane created is left. */
    boolean clean() throws SQLException {
        try (Connection connection = config.database().connect("pglane-source-cleanup")) {
            return dropSlot(connection) && dropPublication(connection);
        }
    }

    private boolean dropSlot(Connection connection) throws SQLException {
        String slot = config.slotName();
        try (PreparedStatement st = connection.prepareStatement("SELECT active_pid, slot_type, plugin,"
                + " database IS NOT DISTINCT FROM pg_catalog.current_database(), database"
                + " FROM pg_catalog.pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    out.println(
                            "Slot " + slot + ": none on " + config.database().address());
                    return true;
                }
                String kind = rs.getString(2);
                String plugin = rs.getString(3);
                if (!"logical".equals(kind) || !PGOUTPUT.equals(plugin) || !rs.getBoolean(4)) {
                    out.println("Slot " + slot + " is not the connector's: it is a " + kind + " slot"
                            + (plugin == null ? "" : " of plugin " + plugin)
                            + (rs.getString(5) == null ? "" : " on database " + rs.getString(5))
                            + ", where a pglane source's is a logical slot of " + PGOUTPUT + " on database "
                            + config.database().database() + "; nothing was dropped");
                    return false;
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
        List<String> others = otherPgoutputSlots(connection);
        if (!others.isEmpty() && !forcePublication) {
            out.println("Kept publication " + publication + ": the database has other pgoutput slots " + others
                    + ", and the server does not say which publication a slot reads; if none of them reads "
                    + publication + " (another pglane source configured with publication.name=" + publication
                    + ", say), run again with " + FORCE + " before the config file");
            return false;
        }
        try (Statement st = connection.createStatement()) {
            st.execute(
                    "DROP PUBLICATION " + connection.unwrap(PGConnection.class).escapeIdentifier(publication));
        }
        out.println("Dropped publication " + publication + ", which pglane had created");
        return true;
    }

    /** The pgoutput slots of this database but the connector's (dropped by now), temporary ones included. */
    private List<String> otherPgoutputSlots(Connection connection) throws SQLException {
        List<String> slots = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement("SELECT slot_name FROM pg_catalog.pg_replication_slots"
                + " WHERE slot_type = 'logical' AND plugin = ? AND database = pg_catalog.current_database()"
                + " AND slot_name <> ? ORDER BY slot_name")) {
            st.setString(1, PGOUTPUT);
            st.setString(2, config.slotName());
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    slots.add(rs.getString(1));
                }
            }
        }
        return slots;
    }
}
