package dev.pglane.source.capture;

import dev.pglane.connect.database.ConnectionOpener;
import dev.pglane.source.DatabaseTables;
import dev.pglane.source.PeriodicWatch;
import dev.pglane.source.TableFilter;
import dev.pglane.source.columns.PublishedColumns;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.reader.PublicationSetup;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * With table lists, a publication names its tables ({@code FOR TABLE}), so a table created later that the lists
 * select is not captured. Every 5 s this looks for such tables. To a publication pglane created it adds those the role
 * owns ({@code ALTER PUBLICATION ... ADD TABLE}), with an INFO line; the others, and any of a publication of one's own,
 * a WARN names, once per set. Rows a table held before it joined are sent only with {@code snapshot.new.tables}.
 *
 * <p>With {@code publication.column.lists} it also renews the column lists of a publication pglane created when they
 * no longer match the column rules (a column was added to a table), and names in a WARN the columns that were not
 * published until then.
 */
public final class IncludedTablesWatch extends PeriodicWatch {
    private static final Logger log = LoggerFactory.getLogger(IncludedTablesWatch.class);
    static final Duration PERIOD = Duration.ofSeconds(5);

    private final String connectorName;
    private final String publication;
    private final TableFilter filter;
    private final PublishedColumns columns;
    private List<String> lastWarned = List.of();

    IncludedTablesWatch(
            String connectorName,
            String publication,
            TableFilter filter,
            PublishedColumns columns,
            Duration period,
            ConnectionOpener connections,
            FailureSlot failures) {
        super(connectorName, "included-tables", period, connections, failures);
        this.connectorName = connectorName;
        this.publication = publication;
        this.filter = filter;
        this.columns = columns;
    }

    /** Starts looking every 5 s; call only with table lists. */
    public static IncludedTablesWatch start(
            String connectorName,
            String publication,
            TableFilter filter,
            PublishedColumns columns,
            ConnectionOpener connections,
            FailureSlot failures) {
        IncludedTablesWatch watch =
                new IncludedTablesWatch(connectorName, publication, filter, columns, PERIOD, connections, failures);
        watch.startThread();
        return watch;
    }

    @Override
    protected void check(Connection connection) throws SQLException {
        Set<String> published = DatabaseTables.published(connection, publication);
        List<DatabaseTables.Table> missing = new ArrayList<>();
        for (DatabaseTables.Table table : filter.captured(DatabaseTables.publishable(connection))) {
            if (!published.contains(table.name())) {
                missing.add(table);
            }
        }
        List<String> notAdded = new ArrayList<>();
        boolean own = !missing.isEmpty() && PublicationSetup.createdByPglane(connection, publication);
        PGConnection pg = connection.unwrap(PGConnection.class);
        for (DatabaseTables.Table table : missing) {
            if (own && table.owned()) {
                try (Statement st = connection.createStatement()) {
                    st.execute("ALTER PUBLICATION " + pg.escapeIdentifier(publication) + " ADD TABLE "
                            + columns.tableSpec(connection, table.schema(), table.table()));
                }
                log.info(
                        "pglane source {}: added {} to publication {}: the table lists select it; rows it held before"
                                + " are sent only with snapshot.new.tables",
                        connectorName,
                        table.name(),
                        publication);
            } else {
                notAdded.add(table.name());
            }
        }
        warnIfNotAdded(notAdded, own);
        if (columns.enabled()) {
            Map<String, List<String>> lists = DatabaseTables.columnLists(connection, publication);
            if (!lists.isEmpty() && PublicationSetup.createdByPglane(connection, publication)) {
                renewColumnLists(connection, lists);
            }
        }
    }

    /**
     * Gives each table of the publication the column list the rules give it now, where that differs from the one it
     * has: a column added to a table with a list is not published until its list names it.
     */
    private void renewColumnLists(Connection connection, Map<String, List<String>> lists) throws SQLException {
        for (DatabaseTables.Table table : filter.captured(DatabaseTables.publishable(connection))) {
            List<String> listed = lists.get(table.name());
            if (listed == null || !table.owned()) {
                continue; // a table without a list publishes every column, also the ones added later
            }
            Optional<List<String>> wanted = columns.of(connection, table.schema(), table.table());
            if (wanted.equals(Optional.of(listed))) {
                continue;
            }
            PGConnection pg = connection.unwrap(PGConnection.class);
            String name = pg.escapeIdentifier(publication);
            try (Statement st = connection.createStatement()) {
                // one implicit transaction: no change of the table is decoded between the two
                st.execute("ALTER PUBLICATION " + name + " DROP TABLE " + pg.escapeIdentifier(table.schema()) + "."
                        + pg.escapeIdentifier(table.table()) + "; ALTER PUBLICATION " + name + " ADD TABLE "
                        + columns.tableSpec(connection, table.schema(), table.table()));
            }
            List<String> joined = new ArrayList<>(wanted.orElse(List.of()));
            joined.removeAll(listed);
            log.warn(
                    "pglane source {}: renewed the column list of {} in publication {}; columns {} were not published"
                            + " from when they were added until now, so changes made in between did not carry them",
                    connectorName,
                    table.name(),
                    publication,
                    wanted.isEmpty() ? "(all of them, the list is gone)" : joined);
        }
    }

    private void warnIfNotAdded(List<String> notAdded, boolean own) {
        if (!notAdded.isEmpty() && !notAdded.equals(lastWarned)) {
            log.warn(
                    "pglane source {}: tables {} match the table lists but are not in publication {}, so their changes"
                            + " are not captured: {}",
                    connectorName,
                    notAdded,
                    publication,
                    own
                            ? "the role does not own them; add them as their owner (ALTER PUBLICATION ... ADD TABLE)"
                            : "pglane did not create the publication and leaves it as it is; add them to it");
        }
        lastWarned = notAdded;
    }

    @Override
    protected String describe() {
        return "the included-tables watch of publication " + publication;
    }

    @Override
    protected String whileFailing() {
        return "cannot look for tables the lists select that publication " + publication + " lacks";
    }
}
