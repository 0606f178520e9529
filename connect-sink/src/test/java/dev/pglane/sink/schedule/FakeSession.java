package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Struct;

/**
 * One session of the {@link FakeDatabase}: applies the change events of {@link SampleTables} the way
 * the real applier would, taking the locks PostgreSQL would take. {@code accounts} and {@code items}
 * are keyed by id (an {@code accounts} row also locks its email, an {@code items} row its parent
 * account); {@code audit} is a bag of notes: inserts lock nothing, updates and deletes lock the table.
 */
final class FakeSession implements TransactionApplier {
    static final Object DELETED = new Object();
    private static final String AUDIT_TABLE = "audit.*";

    private final FakeDatabase db;
    private final Object monitor;
    private final int pid;
    private boolean closed;
    private Long xid;
    private long startedAt;
    private boolean cancelRequested;
    private String waitingFor;
    private boolean ahead;
    private long appliedAt;
    private final Set<String> locks = new HashSet<>();
    private final Set<String> touches = new HashSet<>();
    private final Map<String, Map<Object, Object>> writes = new HashMap<>();
    private final Map<String, Integer> auditDelta = new HashMap<>();
    private boolean auditTruncated;

    FakeSession(FakeDatabase db, Object monitor, int pid) {
        this.db = db;
        this.monitor = monitor;
        this.pid = pid;
    }

    @Override
    public void apply(SourceTransaction tx, boolean ahead) throws SQLException {
        synchronized (monitor) {
            if (closed || xid != null) {
                throw new IllegalStateException("session " + pid + " is closed or already in a transaction");
            }
            xid = tx.xid();
            this.ahead = ahead;
            int attempt = db.begin(this, xid);
            try {
                FakeDatabase.Script script = db.scriptOf(xid);
                if (script != null) {
                    script.run(this, attempt);
                }
                for (ChangeRecord record : tx.changes()) {
                    checkCancel();
                    applyChange(record.event());
                }
                db.holdForOverlap();
                appliedAt = db.tick();
            } finally {
                cancelRequested = false;
            }
        }
    }

    @Override
    public void commit(SourceTransaction tx) {
        synchronized (monitor) {
            if (!Objects.equals(xid, tx.xid())) {
                throw new IllegalStateException("session " + pid + " commits " + tx.xid() + " but holds " + xid);
            }
            db.end(this, xid, true);
            reset();
        }
    }

    @Override
    public void rollback() {
        synchronized (monitor) {
            if (xid != null) {
                db.end(this, xid, false);
                reset();
            }
        }
    }

    @Override
    public int backendPid() {
        return pid;
    }

    @Override
    public void close() {
        synchronized (monitor) {
            rollback();
            closed = true;
        }
    }

    boolean isClosed() {
        synchronized (monitor) {
            return closed;
        }
    }

    /** Takes an exclusive lock, waiting like a row lock; for scripts, also locks no change takes. */
    void lock(String key) throws SQLException {
        synchronized (monitor) {
            db.lock(this, key);
            locks.add(key);
        }
    }

    // --- called by FakeDatabase, holding the monitor ---

    void startedAt(long tick) {
        startedAt = tick;
    }

    long startedAt() {
        return startedAt;
    }

    /** When the transaction's last change was applied; 0 if it never got that far. */
    long appliedAt() {
        return appliedAt;
    }

    /** Whether the open transaction wrote {@code key} of {@code table} as a live row. */
    boolean wroteRow(String table, Object key) {
        Object value = writes.getOrDefault(table, Map.of()).get(key);
        return value != null && value != DELETED;
    }

    Set<String> locks() {
        return Set.copyOf(locks);
    }

    Set<String> touches() {
        return Set.copyOf(touches);
    }

    String waitingFor() {
        return waitingFor;
    }

    void waitFor(String key) {
        waitingFor = key;
    }

    /** Like {@code pg_cancel_backend}: only a running statement ({@code apply()}) is cancelled. */
    void requestCancel() {
        if (xid != null) {
            cancelRequested = true;
        }
    }

    void checkCancel() throws SQLException {
        if (cancelRequested) {
            cancelRequested = false;
            throw new SQLException("canceling statement due to user request", "57014");
        }
    }

    void publish(Map<String, Map<Object, Object>> committed) {
        writes.forEach((table, rows) -> {
            Map<Object, Object> target = committed.computeIfAbsent(table, t -> new TreeMap<>());
            rows.forEach((key, value) -> {
                if (value == DELETED) {
                    target.remove(key);
                } else {
                    target.put(key, value);
                }
            });
        });
        Map<Object, Object> audit = committed.computeIfAbsent("audit", t -> new TreeMap<>());
        if (auditTruncated) {
            audit.clear();
        }
        auditDelta.forEach((note, delta) -> audit.merge(note, delta, (a, b) -> (Integer) a + (Integer) b));
        audit.values().removeIf(count -> (Integer) count <= 0);
    }

    private void reset() {
        xid = null;
        appliedAt = 0;
        locks.clear();
        touches.clear();
        writes.clear();
        auditDelta.clear();
        auditTruncated = false;
    }

    private void applyChange(ChangeEvent event) throws SQLException {
        switch (event.source().table()) {
            case "accounts" -> applyAccount(event);
            case "items" -> applyItem(event);
            case "audit" -> applyAudit(event);
            default ->
                throw new IllegalStateException("no table " + event.source().table());
        }
    }

    private void applyAccount(ChangeEvent event) throws SQLException {
        checkVisible("accounts", event);
        for (Struct row : images(event)) {
            lock("accounts.id=" + id(row));
            if (row.get("email") != null) {
                lock("accounts.email=" + row.get("email"));
            }
        }
        Struct after = event.after();
        if (after != null && after.get("email") != null) {
            Long oldId = event.before() == null ? null : id(event.before());
            for (Map.Entry<Object, Object> other : visible("accounts").entrySet()) {
                boolean sameEmail = Objects.equals(((List<?>) other.getValue()).get(0), after.get("email"));
                if (sameEmail
                        && !other.getKey().equals(oldId)
                        && !other.getKey().equals(id(after))) {
                    throw new SQLException(
                            "duplicate key value violates unique constraint \"accounts_email_key\"", "23505");
                }
            }
        }
        writeKeyed("accounts", event, after == null ? null : Arrays.asList(after.get("email"), after.get("balance")));
    }

    private void applyItem(ChangeEvent event) throws SQLException {
        checkVisible("items", event);
        for (Struct row : images(event)) {
            lock("items.id=" + id(row));
            lock("accounts.id=" + row.get("account_id"));
        }
        Struct after = event.after();
        writeKeyed("items", event, after == null ? null : List.of(after.get("account_id"), after.get("qty")));
    }

    /**
     * An update or delete of a row that another open transaction inserted finds no row, as in PostgreSQL: the row is
     * not visible yet, so there is nothing to wait for. Only a transaction that runs ahead of a predecessor may meet
     * that; it fails as the real session does, to be applied again ({@link TransactionApplier#apply}). Any other
     * transaction meeting it would mean conflicting transactions overlapped.
     */
    private void checkVisible(String table, ChangeEvent event) throws SQLException {
        if (event.op() == Op.CREATE || event.op() == Op.READ) {
            return;
        }
        Long existing = event.before() != null ? id(event.before()) : id(event.after());
        if (db.insertedByAnother(this, table, existing)) {
            if (!ahead) {
                throw new IllegalStateException(table + " row " + existing + " was inserted by a transaction still"
                        + " open while xid " + xid + " changes it: conflicting transactions overlapped");
            }
            throw new SQLException("xid " + xid + " ran ahead and found no " + table + " row " + existing, "PL001");
        }
    }

    /**
     * Inserts, updates or deletes the row by id, failing as PostgreSQL would on a missing or duplicate key; a
     * snapshot row overwrites whatever is there, as the session's upsert does.
     */
    private void writeKeyed(String table, ChangeEvent event, Object newValue) throws SQLException {
        Map<Object, Object> rows = visible(table);
        Long newId = event.after() == null ? null : id(event.after());
        if (event.op() == Op.READ) {
            write(table, newId, newValue);
            return;
        }
        Long existing = null;
        if (event.op() != Op.CREATE) {
            existing = event.before() != null ? id(event.before()) : newId;
            if (!rows.containsKey(existing)) {
                throw new IllegalStateException(table + " row " + existing + " is missing for op "
                        + event.op().code());
            }
            write(table, existing, DELETED);
        }
        if (newId != null) {
            if (rows.containsKey(newId) && !newId.equals(existing)) {
                throw new SQLException(
                        "duplicate key value violates unique constraint \"" + table + "_pkey\"", "23505");
            }
            write(table, newId, newValue);
        }
    }

    private void applyAudit(ChangeEvent event) throws SQLException {
        if (event.op() == Op.TRUNCATE) {
            lock(AUDIT_TABLE);
            auditTruncated = true;
            auditDelta.clear();
            return;
        }
        if (event.before() != null) {
            lock(AUDIT_TABLE);
            String note = (String) event.before().get("note");
            Object committedCount =
                    auditTruncated ? null : db.committedTable("audit").get(note);
            int count = (committedCount == null ? 0 : (Integer) committedCount) + auditDelta.getOrDefault(note, 0);
            if (count <= 0) {
                throw new IllegalStateException("audit has no row " + note);
            }
            auditDelta.merge(note, -1, Integer::sum);
        }
        if (event.after() != null) {
            touches.add(AUDIT_TABLE);
            auditDelta.merge((String) event.after().get("note"), 1, Integer::sum);
        }
    }

    private Map<Object, Object> visible(String table) {
        Map<Object, Object> rows = new HashMap<>(db.committedTable(table));
        writes.getOrDefault(table, Map.of()).forEach((key, value) -> {
            if (value == DELETED) {
                rows.remove(key);
            } else {
                rows.put(key, value);
            }
        });
        return rows;
    }

    private void write(String table, Object key, Object value) {
        writes.computeIfAbsent(table, t -> new HashMap<>()).put(key, value);
    }

    private static List<Struct> images(ChangeEvent event) {
        return Stream.of(event.before(), event.after()).filter(Objects::nonNull).toList();
    }

    private static Long id(Struct row) {
        return ((Number) row.get("id")).longValue();
    }
}
