package dev.pglane.local.consistency;

import dev.pglane.local.consistency.SessionKeys.CompositeKey;
import dev.pglane.local.consistency.TransactionPlan.Operation;
import dev.pglane.local.workload.TypedValues;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The SQL of each {@link Operation}, run in the open transaction of one {@link ConsistencySession}. Every choice
 * (which rows, which amounts, which values) comes from the session's seeded random source; new keys come from the
 * session's key space and the transaction's stamp, so no two transactions, sessions or runs ever make the same key.
 * Every row a step writes in an invariant table carries the transaction's stamp (session, seq).
 */
final class ConsistencySteps {
    /** Keys per session: (session + 1) × this, plus seq × {@value #KEYS_PER_TRANSACTION}, plus a counter. */
    private static final long KEY_SPACE = 1_000_000_000_000L;

    private static final int KEYS_PER_TRANSACTION = 100;
    private static final int LARGE_GROUP_ITEMS = 1_500;
    private static final int CODE_POOL = 400;
    private static final String[] REGIONS = {"eu", "us", "ap"};
    private static final String UNIQUE_VIOLATION = "23505";

    private final Connection connection;
    private final ConsistencySchema schema;
    private final Random random;
    private final int session;
    private final SessionKeys keys;
    private long seq;
    private int keysTaken;
    private long rowChanges;

    ConsistencySteps(Connection connection, ConsistencySchema schema, Random random, int session, SessionKeys keys) {
        this.connection = connection;
        this.schema = schema;
        this.random = random;
        this.session = session;
        this.keys = keys;
    }

    /**
     * Starts a transaction: takes the session's next sequence number, its stamp (the row is the session's own, so
     * only its own transactions wait for it; a rollback gives the number back).
     */
    long stamp() throws SQLException {
        rowChanges = 0;
        keysTaken = 0;
        seq = queryLong(
                "INSERT INTO " + schema.table("session_seq") + " VALUES (?, 1) ON CONFLICT (session)"
                        + " DO UPDATE SET n = session_seq.n + 1 RETURNING n",
                session);
        return seq;
    }

    /** Advances the hot clock row and logs the tick this transaction took. */
    void tickClock() throws SQLException {
        long tick = queryLong("UPDATE " + schema.table("clock") + " SET n = n + 1 WHERE id = 1 RETURNING n");
        exec("INSERT INTO " + schema.table("clock_log") + " VALUES (?, ?, ?)", tick, session, seq);
    }

    /** Logs the transaction's stamp, last: the row that says the transaction is there. */
    void log(TransactionPlan plan) throws SQLException {
        exec("INSERT INTO " + schema.table("tx_log") + " VALUES (?, ?, ?)", session, seq, plan.describe());
    }

    /** Seeds the server's random(), which draws the typed rows' values: they follow from the seed too. */
    void seedServerRandom() throws SQLException {
        try (PreparedStatement statement = prepare("SELECT setseed(?)", random.nextDouble() * 2 - 1)) {
            statement.execute();
        }
    }

    /** Rows the statements since {@link #stamp} changed, also in rolled-back savepoints; cascades not counted. */
    long rowChanges() {
        return rowChanges;
    }

    void run(Operation operation) throws SQLException {
        switch (operation) {
            case TRANSFER -> transfer();
            case GROUP_CREATE -> createGroup(1 + random.nextInt(5), random.nextInt(3));
            case GROUP_RESIZE -> resizeGroup();
            case GROUP_MOVE -> moveGroup();
            case GROUP_DELETE -> deleteGroup();
            case DOC -> doc();
            case TYPED -> typed();
            case COMPOSITE -> composite();
            case NOKEY -> keyless();
            case SCRATCH_TRUNCATE -> truncateScratch();
            default -> largeGroup(); // LARGE_GROUP, the last one
        }
    }

    /**
     * Money from one to three accounts to another, the accounts updated in id order (fewer deadlocks between
     * transfers, not none: a transaction may transfer twice).
     */
    private void transfer() throws SQLException {
        List<Integer> accounts = new ArrayList<>();
        int count = 2 + random.nextInt(3);
        while (accounts.size() < count) {
            int account = 1 + random.nextInt(ConsistencySchema.ACCOUNTS);
            if (!accounts.contains(account)) {
                accounts.add(account);
            }
        }
        long[] deltas = new long[count];
        for (int i = 1; i < count; i++) {
            deltas[i] = -(1 + random.nextInt(100));
            deltas[0] -= deltas[i];
        }
        List<Integer> order = accounts.stream().sorted().toList();
        for (int account : order) {
            exec(
                    "UPDATE " + schema.table("accounts")
                            + " SET balance = balance + ?, last_session = ?, last_seq = ? WHERE id = ?",
                    deltas[accounts.indexOf(account)],
                    session,
                    seq,
                    account);
        }
    }

    private void createGroup(int items, int tags) throws SQLException {
        long mark = nextKey();
        exec("INSERT INTO " + schema.table("tx_marks") + " VALUES (?, ?, ?, ?, ?)", mark, session, seq, items, tags);
        for (int item = 1; item <= items; item++) {
            exec("INSERT INTO " + schema.table("tx_items") + " VALUES (?, ?, ?)", mark, item, "item " + item);
        }
        for (int i = 0; i < tags; i++) {
            long tag = nextKey();
            exec("INSERT INTO " + schema.table("tx_tags") + " VALUES (?, ?, ?)", tag, mark, "tag-" + tag);
        }
        keys.groups().add(mark);
    }

    /** An item or a tag more or less, and the mark's counts updated to match, in the same transaction. */
    private void resizeGroup() throws SQLException {
        if (keys.groups().isEmpty()) {
            createGroup(1, 1);
            return;
        }
        long mark = SessionKeys.pick(keys.groups(), random);
        String items = schema.table("tx_items");
        String tags = schema.table("tx_tags");
        switch (random.nextInt(4)) {
            case 0 ->
                exec(
                        "INSERT INTO " + items + " SELECT ?, coalesce(max(item_no), 0) + 1, 'added' FROM " + items
                                + " WHERE mark_id = ?",
                        mark,
                        mark);
            case 1 ->
                exec(
                        "DELETE FROM " + items + " WHERE mark_id = ? AND item_no = (SELECT max(item_no) FROM " + items
                                + " WHERE mark_id = ?)",
                        mark,
                        mark);
            case 2 -> {
                long tag = nextKey();
                exec("INSERT INTO " + tags + " VALUES (?, ?, ?)", tag, mark, "tag-" + tag);
            }
            default ->
                exec("DELETE FROM " + tags + " WHERE id = (SELECT min(id) FROM " + tags + " WHERE mark_id = ?)", mark);
        }
        exec(
                "UPDATE " + schema.table("tx_marks") + " SET expected_items = (SELECT count(*) FROM " + items
                        + " WHERE mark_id = ?), expected_tags = (SELECT count(*) FROM " + tags
                        + " WHERE mark_id = ?), session = ?, seq = ? WHERE mark_id = ?",
                mark,
                mark,
                session,
                seq,
                mark);
    }

    /** A new primary key for a mark; its items and tags follow by ON UPDATE CASCADE. */
    private void moveGroup() throws SQLException {
        if (keys.groups().isEmpty()) {
            createGroup(2, 0);
            return;
        }
        long mark = SessionKeys.pick(keys.groups(), random);
        long moved = nextKey();
        exec(
                "UPDATE " + schema.table("tx_marks") + " SET mark_id = ?, session = ?, seq = ? WHERE mark_id = ?",
                moved,
                session,
                seq,
                mark);
        keys.groups().set(keys.groups().indexOf(mark), moved);
    }

    /** The mark alone (its items and tags by ON DELETE CASCADE), or the items, the tags, then the mark. */
    private void deleteGroup() throws SQLException {
        if (keys.groups().isEmpty()) {
            return;
        }
        long mark = keys.groups().remove(random.nextInt(keys.groups().size()));
        if (random.nextBoolean()) {
            exec("DELETE FROM " + schema.table("tx_items") + " WHERE mark_id = ?", mark);
            exec("DELETE FROM " + schema.table("tx_tags") + " WHERE mark_id = ?", mark);
        }
        exec("DELETE FROM " + schema.table("tx_marks") + " WHERE mark_id = ?", mark);
    }

    /** A group of {@value #LARGE_GROUP_ITEMS} items of 2.5 kB: one transaction of several MB, atomic or not at all. */
    private void largeGroup() throws SQLException {
        long mark = nextKey();
        exec(
                "INSERT INTO " + schema.table("tx_marks") + " VALUES (?, ?, ?, ?, 0)",
                mark,
                session,
                seq,
                LARGE_GROUP_ITEMS);
        exec(
                "INSERT INTO " + schema.table("tx_items")
                        + " SELECT ?, g, repeat(md5(? || '-' || g), 80) FROM generate_series(1, ?) g",
                mark,
                Long.toString(mark),
                LARGE_GROUP_ITEMS);
        keys.groups().add(mark);
    }

    /** A document of 9 to 12 kB, or an update of its title (the body stays a TOAST pointer), or of its body. */
    private void doc() throws SQLException {
        int roll = random.nextInt(10);
        String docs = schema.table("docs");
        if (keys.docs().isEmpty() || roll < 4) {
            long id = nextKey();
            exec("INSERT INTO " + docs + " VALUES (?, ?, ?)", id, "doc " + id, letters(9000 + random.nextInt(3000)));
            keys.docs().add(id);
        } else if (roll < 8) {
            exec("UPDATE " + docs + " SET title = title || '+' WHERE id = ?", SessionKeys.pick(keys.docs(), random));
        } else {
            exec("UPDATE " + docs + " SET body = ? WHERE id = ?", letters(9000), SessionKeys.pick(keys.docs(), random));
        }
    }

    /** A row of every type family, values drawn by the server (its random() seeded per session), or an update. */
    private void typed() throws SQLException {
        String typed = schema.table("typed");
        if (keys.typed().isEmpty() || random.nextBoolean()) {
            long id = nextKey();
            exec("INSERT INTO " + typed + " VALUES (?, " + TypedValues.DRAWN + ")", id);
            keys.typed().add(id);
        } else {
            exec(
                    "UPDATE " + typed + " SET " + TypedValues.UPDATED + " WHERE id = ?",
                    SessionKeys.pick(keys.typed(), random));
        }
    }

    /**
     * A row with a code from a pool all sessions draw from, a new code, a new composite key, or a delete. A code
     * another session holds fails the statement (unique violation); a savepoint undoes just that statement.
     */
    private void composite() throws SQLException {
        String table = schema.table("composite");
        String code = "c" + random.nextInt(CODE_POOL);
        int roll = random.nextInt(10);
        if (keys.composites().isEmpty() || roll < 4) {
            CompositeKey key = new CompositeKey(REGIONS[random.nextInt(REGIONS.length)], nextKey());
            if (unlessCodeTaken("INSERT INTO " + table + " VALUES (?, ?, ?, 1)", key.region(), key.id(), code)) {
                keys.composites().add(key);
            }
            return;
        }
        CompositeKey key = SessionKeys.pick(keys.composites(), random);
        if (roll < 7) {
            unlessCodeTaken(
                    "UPDATE " + table + " SET code = ?, qty = qty + 1 WHERE region = ? AND id = ?",
                    code,
                    key.region(),
                    key.id());
        } else if (roll < 9) {
            CompositeKey moved = new CompositeKey(REGIONS[random.nextInt(REGIONS.length)], nextKey());
            exec(
                    "UPDATE " + table + " SET region = ?, id = ? WHERE region = ? AND id = ?",
                    moved.region(),
                    moved.id(),
                    key.region(),
                    key.id());
            keys.composites().set(keys.composites().indexOf(key), moved);
        } else {
            exec("DELETE FROM " + table + " WHERE region = ? AND id = ?", key.region(), key.id());
            keys.composites().remove(key);
        }
    }

    /** Runs a statement that may hit a code another session holds; returns false, undone, when it did. */
    private boolean unlessCodeTaken(String sql, Object... params) throws SQLException {
        exec("SAVEPOINT code");
        try {
            exec(sql, params);
            exec("RELEASE SAVEPOINT code");
            return true;
        } catch (SQLException e) {
            if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw e;
            }
            exec("ROLLBACK TO SAVEPOINT code");
            return false;
        }
    }

    /**
     * Two or three equal rows in the keyless table, or all the equal rows of a value changed or deleted by one
     * statement: a change record per row, each of which a sink must apply to exactly one of the equal rows.
     */
    private void keyless() throws SQLException {
        int n = random.nextInt(20);
        String events = schema.table("events_nopk");
        switch (random.nextInt(3)) {
            case 0 ->
                exec(
                        "INSERT INTO " + events + " SELECT ?, 'dup', ? FROM generate_series(1, ?)",
                        session,
                        n,
                        2 + random.nextInt(2));
            case 1 -> exec("UPDATE " + events + " SET kind = kind || '!' WHERE session = ? AND n = ?", session, n);
            default -> exec("DELETE FROM " + events + " WHERE session = ? AND n = ?", session, n);
        }
    }

    /** Empties scratch (rows of every session), then leaves one row of this transaction in it. */
    private void truncateScratch() throws SQLException {
        exec("TRUNCATE " + schema.table("scratch"));
        exec("INSERT INTO " + schema.table("scratch") + " VALUES (?, 'after truncate')", nextKey());
    }

    private long nextKey() {
        if (keysTaken == KEYS_PER_TRANSACTION) {
            throw new IllegalStateException("a transaction took more than " + KEYS_PER_TRANSACTION + " keys");
        }
        return (session + 1L) * KEY_SPACE + seq * KEYS_PER_TRANSACTION + keysTaken++;
    }

    private String letters(int length) {
        char[] text = new char[length];
        for (int i = 0; i < length; i++) {
            text[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(text);
    }

    /** Runs one statement in the open transaction; returns the rows it changed. */
    int exec(String sql, Object... params) throws SQLException {
        try (PreparedStatement statement = prepare(sql, params)) {
            statement.execute();
            int changed = Math.max(statement.getUpdateCount(), 0);
            rowChanges += changed;
            return changed;
        }
    }

    /** The first column of the one row a statement returns ({@code ... RETURNING n}), a row changed. */
    private long queryLong(String sql, Object... params) throws SQLException {
        try (PreparedStatement statement = prepare(sql, params);
                ResultSet rs = statement.executeQuery()) {
            if (!rs.next()) {
                throw new IllegalStateException("no row from " + sql);
            }
            rowChanges++;
            return rs.getLong(1);
        }
    }

    private PreparedStatement prepare(String sql, Object... params) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < params.length; i++) {
            statement.setObject(i + 1, params[i]);
        }
        return statement;
    }
}
