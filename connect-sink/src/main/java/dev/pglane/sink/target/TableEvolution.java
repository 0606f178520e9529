package dev.pglane.sink.target;

import dev.pglane.sink.PgSinkConfig;
import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.types.ColumnParameters;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a target table fit the rows the source sends ({@code auto.create}, {@code auto.evolve}, and a key the source
 * gained later, {@link KeyFromSource}):
 * the column types come from each field's {@code __pglane.type} and {@code __pglane.typmod} parameters, the key
 * from {@code __pglane.key}. A record is input from whoever may write its topic, so its type text never reaches
 * the DDL: the target server resolves it ({@link TargetTypes}) and the DDL names the type as the server formats
 * it; a text the server does not take as a type refuses the record before anything runs. The DDL runs in the
 * caller's open transaction, so it commits or rolls back with the changes that needed it; {@code IF NOT EXISTS}
 * makes a second worker's identical DDL a no-op once the first one committed.
 */
public final class TableEvolution {
    private static final Logger log = LoggerFactory.getLogger(TableEvolution.class);

    private final boolean autoCreate;
    private final boolean autoEvolve;
    private final TargetTypes types;
    /** Type differences already warned of, bounded; the workers share this instance. */
    private final WarnOnce retypeWarnings = new WarnOnce(log);

    private final KeyFromSource keys;

    public TableEvolution(boolean autoCreate, boolean autoEvolve, TargetTypes types) {
        this.autoCreate = autoCreate;
        this.autoEvolve = autoEvolve;
        this.types = types;
        this.keys = new KeyFromSource(autoEvolve);
    }

    /**
     * Makes {@code table} fit {@code rowSchema} inside the caller's open transaction: CREATE TABLE (NOT
     * NULL only for key columns, PRIMARY KEY from the fields with {@code __pglane.key=true}) or ALTER
     * TABLE ADD COLUMN for each missing column.
     *
     * @param current the table as the catalog knows it, empty if it does not exist
     * @param record the record that needs the change, named in errors
     * @return true if DDL ran, so the caller must invalidate the catalog entry
     * @throws ConnectException if the table or a column is missing and the setting that would add it
     *     is off, naming table, columns, record and setting
     */
    public boolean ensure(
            Connection connection,
            TableName table,
            Optional<TargetTable> current,
            Schema rowSchema,
            ChangeRecord record)
            throws SQLException {
        if (current.isEmpty()) {
            if (!autoCreate) {
                throw missingTable(table, record);
            }
            createTable(connection, table, rowSchema, record);
            return true;
        }
        List<Field> missing = rowSchema.fields().stream()
                .filter(f -> current.get().column(f.name()).isEmpty())
                .toList();
        List<String> retyped = retyped(current.get(), rowSchema, record);
        if (missing.isEmpty() && retyped.isEmpty()) {
            return keys.carry(connection, current.get(), rowSchema, describe(record));
        }
        if (!missing.isEmpty() && !autoEvolve) {
            throw new ConnectException("Target table " + table + " lacks column(s) "
                    + missing.stream().map(Field::name).collect(Collectors.joining(", ")) + " that "
                    + describe(record) + " carries; add them or set " + PgSinkConfig.AUTO_EVOLVE + "=true");
        }
        List<String> definitions = new ArrayList<>();
        for (Field field : missing) {
            definitions.add(columnDefinition(field, false, record));
        }
        List<String> clauses = new ArrayList<>();
        definitions.forEach(d -> clauses.add(" ADD COLUMN IF NOT EXISTS " + d));
        clauses.addAll(retyped);
        String sql = "ALTER TABLE " + Identifiers.qualified(table) + String.join(",", clauses);
        execute(connection, sql);
        log.info("Evolved {} for {}: {}", table, describe(record), sql);
        return true;
    }

    /**
     * The {@code ALTER COLUMN ... TYPE} clauses for the columns whose source type now only widens the target's, with
     * {@code auto.evolve}; a WARN, once per column and type, for the others whose types differ: without {@code
     * auto.evolve}, or for a change that could lose or alter values, the operator decides.
     */
    private List<String> retyped(TargetTable current, Schema rowSchema, ChangeRecord record) throws SQLException {
        List<String> clauses = new ArrayList<>();
        for (Field field : rowSchema.fields()) {
            Optional<TargetColumn> column = current.column(field.name());
            String text = ColumnParameters.pgType(field.schema());
            if (column.isEmpty()
                    || column.get().generated()
                    || text == null
                    || text.equals(column.get().type())) {
                continue;
            }
            Optional<TargetTypes.Resolved> resolved = types.resolve(text, ColumnParameters.typmod(field.schema()));
            if (resolved.isEmpty()
                    || resolved.get().formatted().equals(column.get().type())) {
                continue;
            }
            String type = resolved.get().formatted();
            String clause = " ALTER COLUMN " + Identifiers.quote(field.name()) + " TYPE " + type;
            if (autoEvolve && TypeWidening.widens(column.get().type(), type)) {
                clauses.add(clause);
            } else {
                retypeWarnings.warn(
                        current.name() + "." + field.name() + " " + type,
                        "Column " + field.name() + " of " + current.name() + " is " + type + " on the source now ("
                                + describe(record) + "), " + column.get().type() + " on the target: "
                                + (autoEvolve
                                        ? "not only a widening, so auto.evolve leaves it; change it yourself if values"
                                                + " may not fit (ALTER TABLE " + Identifiers.qualified(current.name())
                                                + clause + " USING ...)"
                                        : "values that do not fit will stop the sink; run ALTER TABLE "
                                                + Identifiers.qualified(current.name()) + clause + ", or set "
                                                + PgSinkConfig.AUTO_EVOLVE + "=true for widenings"));
            }
        }
        return clauses;
    }

    /**
     * Whether a TRUNCATE of {@code table} has something to truncate: false if the table is missing and
     * {@code auto.create} would create it empty anyway.
     *
     * @throws ConnectException if the table is missing and {@code auto.create} is off
     */
    public boolean truncatable(TableName table, Optional<TargetTable> current, ChangeRecord record) {
        if (current.isPresent()) {
            return true;
        }
        if (!autoCreate) {
            throw missingTable(table, record);
        }
        return false;
    }

    private ConnectException missingTable(TableName table, ChangeRecord record) {
        return new ConnectException("Target table " + table + " does not exist (needed by " + describe(record)
                + "); create it or set " + PgSinkConfig.AUTO_CREATE + "=true");
    }

    private void createTable(Connection connection, TableName table, Schema rowSchema, ChangeRecord record)
            throws SQLException {
        if (!schemaExists(connection, table.schema())) {
            // Checked first: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even when it exists.
            execute(connection, "CREATE SCHEMA IF NOT EXISTS " + Identifiers.quote(table.schema()));
        }
        List<String> key = KeyFromSource.sourceKey(rowSchema);
        List<String> definitions = new ArrayList<>();
        for (Field field : rowSchema.fields()) {
            definitions.add(columnDefinition(field, key.contains(field.name()), record));
        }
        StringBuilder sql = new StringBuilder("CREATE TABLE IF NOT EXISTS ")
                .append(Identifiers.qualified(table))
                .append(" (")
                .append(String.join(", ", definitions));
        if (!key.isEmpty()) {
            sql.append(", PRIMARY KEY (").append(Identifiers.columnList(key)).append(')');
        }
        sql.append(')');
        execute(connection, sql.toString());
        log.info("Created target table {} for {}: {}", table, describe(record), sql);
    }

    /** {@code "name" type [NOT NULL]}, the type as the target server formats it. */
    private String columnDefinition(Field field, boolean notNull, ChangeRecord record) throws SQLException {
        String text = ColumnParameters.pgType(field.schema());
        if (text == null) {
            throw new ConnectException("Column " + field.name() + " of " + describe(record) + " has no "
                    + ColumnParameters.TYPE + " parameter, so its target type is unknown; create the column"
                    + " yourself");
        }
        String problem = TypeText.problem(text);
        Integer typmod = ColumnParameters.typmod(field.schema());
        Optional<TargetTypes.Resolved> resolved = problem == null ? types.resolve(text, typmod) : Optional.empty();
        if (resolved.isEmpty()) {
            String why = problem != null
                    ? problem
                    : text.contains(".")
                            ? "the target has no such type"
                            : "the target has no such type in pg_catalog (a type of another schema is named with it)";
            throw refusedType(field, text, why, record);
        }
        if (!resolved.get().modifierKnown() && text.contains("(")) {
            log.warn(
                    "Column {} of {} is created as {}: the record carries no {} and PostgreSQL before 17 cannot"
                            + " read the modifier of '{}'",
                    field.name(),
                    describe(record),
                    resolved.get().formatted(),
                    ColumnParameters.TYPMOD,
                    text);
        }
        return Identifiers.quote(field.name()) + " " + resolved.get().formatted() + (notNull ? " NOT NULL" : "");
    }

    /** Nothing ran for such a record: the DDL is built only once every column's type is resolved. */
    static ConnectException refusedType(Field field, String text, String why, ChangeRecord record) {
        return new ConnectException("Refused " + describe(record) + ": column " + field.name() + " has type text '"
                + text + "' (" + ColumnParameters.TYPE + "), which is not a type of the target: " + why
                + "; nothing was executed");
    }

    private static boolean schemaExists(Connection connection, String schema) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("SELECT 1 FROM pg_namespace WHERE nspname = ?")) {
            st.setString(1, schema);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute(sql);
        }
    }

    /** {@code record topic-0@12 of source table public.orders}. */
    private static String describe(ChangeRecord record) {
        SourceInfo source = record.event().source();
        return "record " + record.position() + " of source table " + source.schema() + "." + source.table();
    }
}
