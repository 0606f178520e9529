package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.verify.DatabaseComparator;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The databases that subscribers apply a backlog to, on the target server: a template holding the source's state at
 * the slots' position, and one fresh copy of it per run ({@code CREATE DATABASE ... TEMPLATE}), so that every run
 * starts from the same rows and no run sees another's work.
 */
public final class TargetDatabases {
    private static final String INITIAL = "bench_initial";

    private final PostgresNode source;
    private final String sourceDatabase;
    private final PostgresNode target;
    private final String template;

    /** Copies of {@code bench_initial}, compared with the source's own database. */
    TargetDatabases(PostgresNode source, PostgresNode target) {
        this(source, source.database(), target, INITIAL);
    }

    /**
     * Copies of {@code template} on {@code target}, compared with {@code sourceDatabase} on {@code source}.
     *
     * @param template an existing database of {@code target}; {@link #createTemplate} creates the default one
     */
    public TargetDatabases(PostgresNode source, String sourceDatabase, PostgresNode target, String template) {
        this.source = source;
        this.sourceDatabase = sourceDatabase;
        this.target = target;
        this.template = template;
    }

    /** The server whose published tables the copies are compared with. */
    PostgresNode source() {
        return source;
    }

    /**
     * Creates the template for {@code workload}'s backlog with {@link Backlog#createTables} and checks that it equals
     * the source, which must be at that backlog's initial state (no backlog written yet): pgbench's initial rows depend
     * only on the scale, and this check makes sure of it.
     */
    void createTemplate(Backlog backlog, Workload workload) throws SQLException, IOException, InterruptedException {
        execute("CREATE DATABASE " + template);
        backlog.createTables(target, template, workload);
        ComparisonReport report = compare(template);
        if (!report.isEqual()) {
            throw new IllegalStateException(
                    "the target's initial state differs from the source's:\n" + report.summary());
        }
    }

    /**
     * Drops the template and creates it again for {@code workload}, whose pgbench tables have another scale than the
     * last backlog's; the source must have been {@link Backlog#reset} to it.
     */
    void replaceTemplate(Backlog backlog, Workload workload) throws SQLException, IOException, InterruptedException {
        drop(template);
        createTemplate(backlog, workload);
    }

    /** A new database holding the initial state; {@link #drop} removes it. */
    public void createFromTemplate(String database) throws SQLException {
        // FILE_COPY copies the files after a checkpoint; 15's default, WAL_LOG, writes the whole copy to the WAL
        boolean hasStrategy = Integer.parseInt(target.serverVersion().split("\\.")[0]) >= 15;
        execute("CREATE DATABASE " + database + " TEMPLATE " + template + (hasStrategy ? " STRATEGY FILE_COPY" : ""));
    }

    /** The source's published tables against {@code database}'s. */
    public ComparisonReport compare(String database) throws SQLException {
        return new DatabaseComparator(source.jdbcUrlOf(sourceDatabase), target.jdbcUrlOf(database)).compare();
    }

    /** Drops {@code database}, closing any session still in it (a deleted connector's, for one). */
    public void drop(String database) throws SQLException {
        execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = target.open();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
