package dev.pglane.source.validate;

import static dev.pglane.source.PgSourceConfig.PUBLICATION_CREATE;
import static dev.pglane.source.PgSourceConfig.PUBLICATION_NAME;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.connect.validate.ServerCheck;
import dev.pglane.source.DatabaseTables;
import dev.pglane.source.DatabaseTables.Table;
import dev.pglane.source.TableFilter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the publication selects exactly the tables the table lists select, or, when it does not
 * exist, whether pglane may create it. An existing publication is never altered: other consumers
 * may rely on it.
 */
final class PublicationCheck implements ServerCheck {
    private static final Logger log = LoggerFactory.getLogger(PublicationCheck.class);
    private static final int NAMES_SHOWN = 10;

    private final String publication;
    private final boolean create;
    private final TableFilter filter;
    /** The table list key in use, which a selection of no table is reported on. */
    private final String listKey;

    private final DatabaseEndpoint endpoint;

    PublicationCheck(
            String publication, boolean create, TableFilter filter, String listKey, DatabaseEndpoint endpoint) {
        this.publication = publication;
        this.create = create;
        this.filter = filter;
        this.listKey = listKey;
        this.endpoint = endpoint;
    }

    @Override
    public void run(Connection connection, List<ConfigProblem> problems) throws SQLException {
        List<Table> tables = DatabaseTables.publishable(connection);
        List<Table> captured = filter.captured(tables);
        warnAboutTablesWithoutKey(captured);
        Optional<Boolean> allTables = allTables(connection);
        if (allTables.isEmpty()) {
            checkCreatable(connection, captured, problems);
        } else if (filter.capturesAll() && !allTables.get()) {
            Set<String> missing = names(captured);
            missing.removeAll(DatabaseTables.published(connection, publication));
            problems.add(mismatch("is not FOR ALL TABLES, but no table list is set, which means every table"
                    + (missing.isEmpty() ? "" : ": it lacks " + shortList(missing))));
        } else if (!filter.capturesAll() && allTables.get()) {
            Set<String> extra = names(tables);
            extra.removeAll(names(captured));
            problems.add(mismatch("is FOR ALL TABLES, but " + listKey + " selects only some tables"
                    + (extra.isEmpty() ? "" : ": it would also publish " + shortList(extra))));
        } else if (!filter.capturesAll()) {
            compareTables(connection, names(captured), problems);
        }
    }

    private void compareTables(Connection connection, Set<String> expected, List<ConfigProblem> problems)
            throws SQLException {
        Set<String> published = DatabaseTables.published(connection, publication);
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(published);
        Set<String> extra = new TreeSet<>(published);
        extra.removeAll(expected);
        List<String> differences = new ArrayList<>();
        if (!missing.isEmpty()) {
            differences.add("it lacks " + shortList(missing));
        }
        if (!extra.isEmpty()) {
            differences.add("it also publishes " + shortList(extra));
        }
        if (!differences.isEmpty()) {
            problems.add(
                    mismatch("does not publish the tables " + listKey + " selects: " + String.join("; ", differences)));
        }
    }

    private ConfigProblem mismatch(String what) {
        return new ConfigProblem(
                PUBLICATION_NAME,
                "Publication '" + publication + "' on " + endpoint.address() + " " + what
                        + ". pglane never alters an existing publication: change it, the table list, or "
                        + PUBLICATION_NAME);
    }

    private void checkCreatable(Connection connection, List<Table> captured, List<ConfigProblem> problems)
            throws SQLException {
        String missing = "Publication '" + publication + "' does not exist in database '" + endpoint.database()
                + "' on " + endpoint.address();
        if (!create) {
            problems.add(new ConfigProblem(
                    PUBLICATION_NAME, missing + " and " + PUBLICATION_CREATE + " is false; create it first"));
            return;
        }
        if (!filter.capturesAll() && captured.isEmpty()) {
            problems.add(new ConfigProblem(
                    listKey, listKey + " selects no table in database '" + endpoint.database() + "'"));
            return;
        }
        String cannot = missing + ", and role '" + endpoint.user() + "' may not create it: ";
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT rolsuper, pg_catalog.has_database_privilege(pg_catalog.current_database(),"
                                + " 'CREATE') FROM pg_roles WHERE rolname = current_user")) {
            rs.next();
            if (rs.getBoolean(1)) {
                return;
            }
            if (filter.capturesAll()) {
                problems.add(new ConfigProblem(PUBLICATION_NAME, cannot + "FOR ALL TABLES needs a superuser"));
                return;
            }
            if (!rs.getBoolean(2)) {
                problems.add(new ConfigProblem(PUBLICATION_NAME, cannot + "it needs CREATE on the database"));
            }
        }
        Set<String> notOwned = names(captured, t -> !t.owned());
        if (!notOwned.isEmpty()) {
            problems.add(
                    new ConfigProblem(PUBLICATION_NAME, cannot + "it does not own the tables " + shortList(notOwned)));
        }
    }

    /** Whether the publication is FOR ALL TABLES; empty when it does not exist. */
    private Optional<Boolean> allTables(Connection connection) throws SQLException {
        try (PreparedStatement st =
                connection.prepareStatement("SELECT puballtables FROM pg_publication WHERE pubname = ?")) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.of(rs.getBoolean(1)) : Optional.empty();
            }
        }
    }

    /** Not an error: such tables still replicate their inserts, and the user may add keys later. */
    private static void warnAboutTablesWithoutKey(List<Table> captured) {
        Set<String> unkeyed = names(captured, t -> !t.identified());
        if (!unkeyed.isEmpty()) {
            log.warn(
                    "Captured tables without a primary key or REPLICA IDENTITY: {}. Their updates and deletes"
                            + " cannot be replicated: a publication that publishes them makes UPDATE and DELETE"
                            + " fail on the source, and pgoutput drops deletes without an old key. Add a primary"
                            + " key or ALTER TABLE ... REPLICA IDENTITY FULL.",
                    shortList(unkeyed));
        }
    }

    private static Set<String> names(List<Table> tables) {
        return names(tables, t -> true);
    }

    private static Set<String> names(List<Table> tables, Predicate<Table> which) {
        return tables.stream().filter(which).map(Table::name).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String shortList(Collection<String> names) {
        String shown = names.stream().limit(NAMES_SHOWN).collect(Collectors.joining(", "));
        return names.size() > NAMES_SHOWN ? shown + " and " + (names.size() - NAMES_SHOWN) + " more" : shown;
    }
}
