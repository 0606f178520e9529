package dev.pglane.local.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One application session of {@link ChangeWorkload}: each {@link #transaction()} makes one to three kinds of change
 * over the {@link WorkloadSchema} tables and commits. Keys are the client's own (its number in the high digits), so
 * clients collide only where meant to: on the counters, and on the tables a TRUNCATE empties.
 */
final class WorkloadClient {
    private static final long KEY_SPACE = 1_000_000_000L;
    private static final int KINDS = 6;
    private static final int TRUNCATE_EVERY = 30;

    private final Connection connection;
    private final WorkloadSchema schema;
    private final Random random;
    private final int client;
    private final List<Long> items = new ArrayList<>();
    private final List<Long> docs = new ArrayList<>();
    private final List<Long> typed = new ArrayList<>();
    private final List<Long> children = new ArrayList<>();
    private long nextKey;
    private long transactions;

    WorkloadClient(Connection connection, WorkloadSchema schema, int client, long seed) throws SQLException {
        this.connection = connection;
        this.schema = schema;
        this.client = client;
        this.random = new Random(seed);
        this.nextKey = (client + 1L) * KEY_SPACE;
        connection.setAutoCommit(false);
    }

    /**
     * Makes one transaction's changes and commits; rolls back and rethrows on failure. Every {@value #TRUNCATE_EVERY}
     * transactions of a client, one of them also empties a table: parent and child by {@code TRUNCATE ... CASCADE},
     * or scratch after a row into it.
     */
    void transaction() throws SQLException {
        try {
            int kinds = 1 + random.nextInt(3);
            for (int i = 0; i < kinds; i++) {
                change(random.nextInt(KINDS));
            }
            truncateNowAndThen();
            transactions++;
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }

    private void change(int kind) throws SQLException {
        switch (kind) {
            case 0 -> items();
            case 1 -> docs();
            case 2 -> typed();
            case 3 -> family();
            case 4 -> duplicates();
            default -> counterAndLedger();
        }
    }

    /** Inserts, an update, and now and then a delete or a change of primary key. */
    private void items() throws SQLException {
        for (int i = random.nextInt(4); i >= 0; i--) {
            long id = nextKey++;
            exec(
                    "INSERT INTO " + schema.table("items") + " VALUES (?, ?, ?, ?)",
                    id,
                    client,
                    random.nextInt(100),
                    "item " + id);
            items.add(id);
        }
        long id = pick(items);
        exec("UPDATE " + schema.table("items") + " SET qty = qty + 1 WHERE id = ?", id);
        int roll = random.nextInt(10);
        if (roll < 2) {
            long newId = nextKey++;
            exec("UPDATE " + schema.table("items") + " SET id = ?, label = 'moved' WHERE id = ?", newId, id);
            items.set(items.indexOf(id), newId);
        } else if (roll < 4) {
            exec("DELETE FROM " + schema.table("items") + " WHERE id = ?", id);
            items.remove(Long.valueOf(id));
        }
    }

    /** A document of 9 to 12 kB, or an update of a title that leaves the body as it is, or of the body. */
    private void docs() throws SQLException {
        int roll = random.nextInt(10);
        if (docs.isEmpty() || roll < 4) {
            long id = nextKey++;
            exec(
                    "INSERT INTO " + schema.table("docs") + " VALUES (?, ?, ?)",
                    id,
                    "doc " + id,
                    letters(9000 + random.nextInt(3000)));
            docs.add(id);
        } else if (roll < 8) {
            exec("UPDATE " + schema.table("docs") + " SET title = title || '+' WHERE id = ?", pick(docs));
        } else {
            exec("UPDATE " + schema.table("docs") + " SET body = ? WHERE id = ?", letters(9000), pick(docs));
        }
    }

    /** A row of drawn values of many types, or an update of some of its columns. */
    private void typed() throws SQLException {
        if (typed.isEmpty() || random.nextBoolean()) {
            long id = nextKey++;
            exec("INSERT INTO " + schema.table("typed") + " VALUES (?, " + TypedValues.DRAWN + ")", id);
            typed.add(id);
        } else {
            exec("UPDATE " + schema.table("typed") + " SET " + TypedValues.UPDATED + " WHERE id = ?", pick(typed));
        }
    }

    private void truncateNowAndThen() throws SQLException {
        if (transactions % TRUNCATE_EVERY == TRUNCATE_EVERY / 2) {
            exec("TRUNCATE " + schema.table("parent") + " CASCADE");
            children.clear();
        } else if (transactions % TRUNCATE_EVERY == TRUNCATE_EVERY - 1) {
            exec("INSERT INTO " + schema.table("scratch") + " VALUES (?, 'short-lived')", nextKey++);
            exec("TRUNCATE " + schema.table("scratch"));
        }
    }

    /** A parent with children, or now and then a child deleted. */
    private void family() throws SQLException {
        if (random.nextInt(5) == 0 && !children.isEmpty()) {
            exec("DELETE FROM " + schema.table("child") + " WHERE id = ?", children.remove(0));
        } else {
            long parent = nextKey++;
            exec("INSERT INTO " + schema.table("parent") + " VALUES (?, ?)", parent, "parent " + parent);
            for (int i = random.nextInt(3); i >= 0; i--) {
                long child = nextKey++;
                exec("INSERT INTO " + schema.table("child") + " VALUES (?, ?, 'child')", child, parent);
                children.add(child);
            }
        }
    }

    /** Two equal rows in the keyless table, then one of a pair changed or deleted (by ctid: exactly one row). */
    private void duplicates() throws SQLException {
        int n = random.nextInt(20);
        String events = schema.table("events_nopk");
        String oneOfThem = "ctid = (SELECT ctid FROM " + events + " WHERE client = ? AND n = ? LIMIT 1)";
        switch (random.nextInt(3)) {
            case 0 -> exec("INSERT INTO " + events + " VALUES (?, 'dup', ?), (?, 'dup', ?)", client, n, client, n);
            case 1 -> exec("UPDATE " + events + " SET kind = kind || '!' WHERE " + oneOfThem, client, n);
            default -> exec("DELETE FROM " + events + " WHERE " + oneOfThem, client, n);
        }
    }

    /** One of the hot counters moves, and the ledger gets a row. */
    private void counterAndLedger() throws SQLException {
        int amount = 1 + random.nextInt(100);
        exec(
                "UPDATE " + schema.table("counters") + " SET n = n + ? WHERE id = ?",
                amount,
                1 + random.nextInt(WorkloadSchema.COUNTERS));
        exec("INSERT INTO " + schema.table("ledger") + " (client, amount) VALUES (?, ?)", client, amount);
    }

    private long pick(List<Long> keys) {
        return keys.get(random.nextInt(keys.size()));
    }

    private String letters(int length) {
        char[] text = new char[length];
        for (int i = 0; i < length; i++) {
            text[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(text);
    }

    private void exec(String sql, Object... params) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            statement.execute();
        }
    }
}
