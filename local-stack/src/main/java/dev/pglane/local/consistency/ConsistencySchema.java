package dev.pglane.local.consistency;

import dev.pglane.local.workload.TypedValues;
import java.util.List;

/**
 * The tables of the {@link ConsistencyWorkload}, all in one schema. Two kinds:
 *
 * <p>Tables that carry an invariant {@link InvariantChecker} checks on the target, each true on every committed
 * state of the source and never truncated:
 *
 * <ul>
 *   <li>{@code accounts}: {@value #ACCOUNTS} rows whose balances always sum to {@link #totalBalance()}; transfers
 *       move money between them. Each row is stamped with the (session, seq) of the transaction that last wrote it;
 *   <li>{@code tx_marks}, {@code tx_items} (composite key) and {@code tx_tags} (a unique tag besides the key): a mark
 *       says how many items and tags its group has; groups are created, resized, moved to a new key (the foreign
 *       keys cascade) and deleted, each in one transaction;
 *   <li>{@code session_seq} and {@code tx_log}: every committed transaction of session s takes the next number n of
 *       its session's row and logs (s, n), so a session's log is exactly 1..n;
 *   <li>{@code clock} and {@code clock_log}: one hot row that about a fifth of the transactions advance, each
 *       logging the tick it took, so the ticks are exactly 1..clock.
 * </ul>
 *
 * <p>Tables that only widen the coverage, checked by the final comparison: {@code docs} (TOAST bodies over 8 kB,
 * updates that leave them unchanged), {@code typed} (every type family of the wire contract), {@code composite} (a
 * composite key that changes, and a unique code drawn from a pool all sessions share), {@code events_nopk} (no key,
 * duplicate rows) and {@code scratch} (emptied by TRUNCATE now and then).
 */
public final class ConsistencySchema {
    /** Rows of {@code accounts}, ids 1 to this. */
    public static final int ACCOUNTS = 20;
    /** Each account's balance before the first transfer. */
    public static final long INITIAL_BALANCE = 1_000;

    private final String schema;

    /** The workload's tables, in the order {@link #ddl()} creates them. */
    public static final List<String> TABLES = List.of(
            "accounts",
            "session_seq",
            "tx_log",
            "clock",
            "clock_log",
            "tx_marks",
            "tx_items",
            "tx_tags",
            "docs",
            "typed",
            "composite",
            "events_nopk",
            "scratch");

    public ConsistencySchema(String schema) {
        this.schema = schema;
    }

    public String name() {
        return schema;
    }

    /** {@code schema.table}. */
    public String table(String table) {
        return schema + "." + table;
    }

    /** What the balances of {@code accounts} always sum to. */
    public static long totalBalance() {
        return ACCOUNTS * INITIAL_BALANCE;
    }

    /**
     * The schema, its tables, and the rows every run starts from (the accounts and the clock): the same statements
     * on the source and the target leave them equal, as an initial copy would.
     */
    public List<String> ddl() {
        return List.of(
                "CREATE SCHEMA IF NOT EXISTS " + schema,
                "CREATE TABLE " + table("accounts") + " (id integer PRIMARY KEY, balance bigint NOT NULL,"
                        + " last_session integer, last_seq bigint)",
                "INSERT INTO " + table("accounts") + " SELECT g, " + INITIAL_BALANCE + " FROM generate_series(1, "
                        + ACCOUNTS + ") g",
                "CREATE TABLE " + table("session_seq") + " (session integer PRIMARY KEY, n bigint NOT NULL)",
                "CREATE TABLE " + table("tx_log") + " (session integer, seq bigint, ops text NOT NULL,"
                        + " PRIMARY KEY (session, seq))",
                "CREATE TABLE " + table("clock") + " (id integer PRIMARY KEY, n bigint NOT NULL)",
                "INSERT INTO " + table("clock") + " VALUES (1, 0)",
                "CREATE TABLE " + table("clock_log") + " (tick bigint PRIMARY KEY, session integer NOT NULL,"
                        + " seq bigint NOT NULL)",
                "CREATE TABLE " + table("tx_marks") + " (mark_id bigint PRIMARY KEY, session integer NOT NULL,"
                        + " seq bigint NOT NULL, expected_items integer NOT NULL, expected_tags integer NOT NULL)",
                "CREATE TABLE " + table("tx_items") + " (mark_id bigint REFERENCES " + table("tx_marks")
                        + " ON UPDATE CASCADE ON DELETE CASCADE, item_no integer, payload text,"
                        + " PRIMARY KEY (mark_id, item_no))",
                "CREATE TABLE " + table("tx_tags") + " (id bigint PRIMARY KEY, mark_id bigint NOT NULL REFERENCES "
                        + table("tx_marks") + " ON UPDATE CASCADE ON DELETE CASCADE, tag text NOT NULL UNIQUE)",
                "CREATE TABLE " + table("docs") + " (id bigint PRIMARY KEY, title text, body text)",
                // out of line and uncompressed: an update of the title leaves an unchanged-TOAST pointer
                "ALTER TABLE " + table("docs") + " ALTER COLUMN body SET STORAGE EXTERNAL",
                "CREATE TABLE " + table("typed") + " (" + TypedValues.COLUMNS + ")",
                "CREATE TABLE " + table("composite") + " (region text, id bigint, code text NOT NULL UNIQUE,"
                        + " qty integer, PRIMARY KEY (region, id))",
                "CREATE TABLE " + table("events_nopk") + " (session integer, kind text, n integer)",
                "ALTER TABLE " + table("events_nopk") + " REPLICA IDENTITY FULL",
                "CREATE TABLE " + table("scratch") + " (id bigint PRIMARY KEY, v text)");
    }
}
