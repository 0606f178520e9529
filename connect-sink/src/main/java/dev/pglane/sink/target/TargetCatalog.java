package dev.pglane.sink.target;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.database.SqlStateClass;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * What the sink knows of the target tables, read from pg_catalog once and cached; shared by the
 * scheduler and all apply workers, so it is thread-safe. Missing tables are cached as empty too.
 * Whoever changes a table (DDL) calls {@link #invalidate}, also when that DDL is rolled back. A table read is
 * checked for triggers that would run with a superuser sink's rights ({@link ForeignTriggers}) before it is used.
 */
public final class TargetCatalog {
    private final DatabaseEndpoint endpoint;
    private final String applicationName;
    private final ConcurrentMap<TableName, Optional<TargetTable>> tables = new ConcurrentHashMap<>();
    private final ForeignTriggers triggers;

    /**
     * Counts invalidations, so that a read that raced with an invalidation of any table is returned
     * but not cached: it may predate the DDL.
     */
    private final AtomicLong invalidations = new AtomicLong();

    /** A catalog that warns of tables whose triggers would run with a superuser sink's rights. */
    public TargetCatalog(DatabaseEndpoint endpoint, String applicationName) {
        this(endpoint, applicationName, new ForeignTriggers(ForeignTriggers.Policy.WARN));
    }

    /** @param triggers checks each table read, before the sink can write to it */
    public TargetCatalog(DatabaseEndpoint endpoint, String applicationName, ForeignTriggers triggers) {
        this.endpoint = endpoint;
        this.applicationName = applicationName;
        this.triggers = triggers;
    }

    /**
     * The table, or empty if the target has none; on a miss it is read through a short-lived
     * connection of its own.
     *
     * @throws RetriableException if the target cannot be reached
     * @throws ConnectException if the catalog query fails otherwise
     */
    public Optional<TargetTable> lookup(TableName name) {
        Optional<TargetTable> cached = tables.get(name);
        if (cached != null) {
            return cached;
        }
        try (Connection connection = endpoint.connect(applicationName)) {
            return lookup(name, connection);
        } catch (SQLException e) {
            String message = "Could not read the definition of target table " + name + " from " + endpoint.address()
                    + ": " + e.getMessage();
            throw SqlStateClass.failure(message, e);
        }
    }

    /**
     * The table, or empty if the target has none; on a miss it is read through {@code connection},
     * so an apply session sees its own uncommitted DDL.
     */
    public Optional<TargetTable> lookup(TableName name, Connection connection) throws SQLException {
        Optional<TargetTable> cached = tables.get(name);
        if (cached != null) {
            return cached;
        }
        long stamp = invalidations.get();
        Optional<TargetTable> table = CatalogReader.read(connection, name);
        if (table.isPresent()) {
            triggers.check(connection, name);
        }
        synchronized (invalidations) {
            if (invalidations.get() == stamp) {
                tables.putIfAbsent(name, table);
            }
        }
        return table;
    }

    /** Forgets the table, after DDL on it (committed or rolled back). */
    public void invalidate(TableName name) {
        synchronized (invalidations) {
            invalidations.incrementAndGet();
            tables.remove(name);
        }
    }
}
