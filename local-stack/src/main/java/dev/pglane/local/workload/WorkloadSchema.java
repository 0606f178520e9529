package dev.pglane.local.workload;

import java.util.List;

/**
 * The tables of {@link ChangeWorkload}, all in one schema: between them every kind of change a sink must apply.
 *
 * <ul>
 *   <li>{@code items}: inserts, updates, deletes and primary key changes;
 *   <li>{@code docs}: bodies over 8 kB stored out of line, updates that leave them unchanged (unchanged TOAST);
 *   <li>{@code typed}: a column of most type families, values drawn by the server, NaN and infinities included;
 *   <li>{@code parent} and {@code child}: a foreign key pair, emptied now and then by {@code TRUNCATE ... CASCADE};
 *   <li>{@code scratch}: a plain {@code TRUNCATE};
 *   <li>{@code events_nopk}: no primary key, {@code REPLICA IDENTITY FULL}, duplicate rows updated and deleted one
 *       at a time;
 *   <li>{@code counters}: ten hot rows that many transactions update, so transactions depend on each other;
 *   <li>{@code ledger}: insert-only, no key, ids from a sequence: a transaction applied twice shows as extra rows;
 *   <li>{@code blobs}: the rows of one transaction larger than a sink's buffer.
 * </ul>
 */
public final class WorkloadSchema {
    /** Rows of {@code counters}, ids 1 to this. */
    static final int COUNTERS = 10;

    private final String schema;

    public WorkloadSchema(String schema) {
        this.schema = schema;
    }

    public String name() {
        return schema;
    }

    /** {@code schema.table}. */
    String table(String table) {
        return schema + "." + table;
    }

    /** The schema and its tables, empty; the statements a user would run on the source (and the target). */
    public List<String> ddl() {
        return List.of(
                "CREATE SCHEMA IF NOT EXISTS " + schema,
                "CREATE TABLE " + table("items")
                        + " (id bigint PRIMARY KEY, client integer NOT NULL, qty integer NOT NULL, label text)",
                "CREATE TABLE " + table("docs") + " (id bigint PRIMARY KEY, title text, body text)",
                // out of line and uncompressed whatever the text: the update of the title leaves a TOAST pointer
                "ALTER TABLE " + table("docs") + " ALTER COLUMN body SET STORAGE EXTERNAL",
                "CREATE TABLE " + table("typed") + " (" + TypedValues.COLUMNS + ")",
                "CREATE TABLE " + table("parent") + " (id bigint PRIMARY KEY, name text)",
                "CREATE TABLE " + table("child") + " (id bigint PRIMARY KEY, parent_id bigint NOT NULL REFERENCES "
                        + table("parent") + ", note text)",
                "CREATE TABLE " + table("scratch") + " (id bigint PRIMARY KEY, v text)",
                "CREATE TABLE " + table("events_nopk") + " (client integer, kind text, n integer)",
                "ALTER TABLE " + table("events_nopk") + " REPLICA IDENTITY FULL",
                "CREATE TABLE " + table("counters") + " (id integer PRIMARY KEY, n bigint NOT NULL)",
                "CREATE TABLE " + table("ledger") + " (id bigserial, client integer, amount integer)",
                // insert-only; FULL only keeps the source from warning that its updates could not be replicated
                "ALTER TABLE " + table("ledger") + " REPLICA IDENTITY FULL",
                "CREATE TABLE " + table("blobs") + " (id bigint PRIMARY KEY, body text)",
                "ALTER TABLE " + table("blobs") + " ALTER COLUMN body SET STORAGE EXTERNAL");
    }

    /** Every table, {@code schema.table}, each after the tables it references. */
    public List<String> tables() {
        return List.of(
                        "items",
                        "docs",
                        "typed",
                        "parent",
                        "child",
                        "scratch",
                        "events_nopk",
                        "counters",
                        "ledger",
                        "blobs")
                .stream()
                .map(this::table)
                .toList();
    }

    /**
     * The counters' rows, and a row in scratch and in blobs so that a sink creating tables as their changes come has seen every
     * table of the workload; the first transaction of a run, so that a sink started before it receives them.
     */
    List<String> seed() {
        return List.of(
                "INSERT INTO " + table("counters") + " SELECT g, 0 FROM generate_series(1, " + COUNTERS
                        + ") g ON CONFLICT DO NOTHING",
                "INSERT INTO " + table("scratch") + " VALUES (0, 'seed') ON CONFLICT DO NOTHING",
                "INSERT INTO " + table("blobs") + " VALUES (0, 'seed') ON CONFLICT DO NOTHING");
    }
}
