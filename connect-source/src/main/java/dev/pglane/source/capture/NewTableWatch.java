package dev.pglane.source.capture;

import dev.pglane.connect.database.ConnectionOpener;
import dev.pglane.source.PeriodicWatch;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.seal.MessageSeal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares the tables the publication sends with the ones last announced, every {@link #PERIOD}, on a thread and a
 * connection of its own; when they differ, writes the publication's tables into the WAL as a {@link TablesMessage}, so
 * that the reader takes the change at one point of the stream. The message is written after the publication changed
 * (the watch saw the change committed), so the watermarks of the joined tables' snapshot, written later still, lie in
 * the stream after every change the server sends for them: the snapshot is as consistent as any other.
 */
public final class NewTableWatch extends PeriodicWatch {
    private static final Logger log = LoggerFactory.getLogger(NewTableWatch.class);
    /** How soon a table that joined is noticed. */
    public static final Duration PERIOD = Duration.ofSeconds(5);

    private static final String PUBLISHED = "SELECT c.oid, pt.schemaname, pt.tablename"
            + " FROM pg_catalog.pg_publication_tables pt"
            + " JOIN pg_catalog.pg_namespace n ON n.nspname OPERATOR(pg_catalog.=) pt.schemaname"
            + " JOIN pg_catalog.pg_class c ON c.relnamespace OPERATOR(pg_catalog.=) n.oid"
            + " AND c.relname OPERATOR(pg_catalog.=) pt.tablename"
            + " WHERE pt.pubname OPERATOR(pg_catalog.=) ?";
    private static final String EMIT = "SELECT pg_catalog.pg_logical_emit_message(true, ?, ?)::pg_catalog.text";

    /**
     * @param seal the connector's seal, which its tables messages carry
     * @param signalTable schema.table of the signal table, never captured as a table; {@code null} when none
     * @param connections opens the watch's connection to the source
     */
    public record Settings(
            String connectorName,
            MessageSeal seal,
            String publication,
            String signalTable,
            ConnectionOpener connections) {}

    private final Settings settings;
    private CapturedTables announced;

    private NewTableWatch(Settings settings, CapturedTables announced, FailureSlot failures) {
        super(settings.connectorName(), "new-tables", PERIOD, settings.connections(), failures);
        this.settings = settings;
        this.announced = announced;
    }

    /**
     * @param announced the tables the session starts with
     * @param failures where a failure that ends the watch goes, to fail the task
     */
    public static NewTableWatch start(Settings settings, CapturedTables announced, FailureSlot failures) {
        NewTableWatch watch = new NewTableWatch(settings, announced, failures);
        watch.startThread();
        return watch;
    }

    /** The tables {@code publication} sends now, schema.table by OID, the signal table left out. */
    public static Map<Long, String> published(Connection sql, String publication, String signalTable)
            throws SQLException {
        Map<Long, String> tables = new TreeMap<>();
        try (PreparedStatement st = sql.prepareStatement(PUBLISHED)) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(2) + "." + rs.getString(3);
                    if (!name.equals(signalTable)) {
                        tables.put(rs.getLong(1), name);
                    }
                }
            }
        }
        return tables;
    }

    @Override
    protected String describe() {
        return "The new-table watch of publication " + settings.publication();
    }

    @Override
    protected String whileFailing() {
        return "cannot compare publication " + settings.publication() + " with the captured tables; tables that"
                + " joined it are not noticed until this works again";
    }

    @Override
    protected void check(Connection connection) throws SQLException {
        Map<Long, String> published = published(connection, settings.publication(), settings.signalTable());
        CapturedTables now = CapturedTables.of(published.keySet());
        if (now.equals(announced)) {
            return;
        }
        try (PreparedStatement st = connection.prepareStatement(EMIT)) {
            st.setString(1, TablesMessage.PREFIX);
            st.setString(
                    2,
                    settings.seal()
                            .seal(
                                    TablesMessage.PREFIX,
                                    new TablesMessage(settings.seal().connector(), published).content()));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                log.info(
                        "pglane source {}: publication {} now sends {} tables, of which {} were not captured; the"
                                + " change is in the WAL at {}",
                        settings.connectorName(),
                        settings.publication(),
                        published.size(),
                        published.keySet().stream()
                                .filter(oid -> !announced.contains(oid))
                                .count(),
                        rs.getString(1));
            }
        }
        announced = now;
    }
}
