package dev.pglane.sink.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.assemble.SourceTransaction;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * An in-memory stand-in for the target database, for testing the scheduler's logic: tables of rows,
 * exclusive locks that block like row locks until the holder commits or rolls back, writes kept
 * private to their transaction until commit, and a log of the committed state after every commit.
 * It records every attempt's locks and span on a logical clock, so tests can check which transactions
 * overlapped. Also the scheduler's {@link BlockingProbe}. Every method runs under one monitor.
 */
final class FakeDatabase implements BlockingProbe {
    /** A hook run inside {@code apply()} before a transaction's changes, to stage failures and lock cycles. */
    interface Script {
        void run(FakeSession session, int attempt) throws SQLException;
    }

    /** The committed state right after {@code xid} committed. */
    record Commit(long xid, Map<String, Map<Object, Object>> state) {}

    /** One attempt at a transaction: its span on the logical clock and the locks it took or tables it touched. */
    /** @param applied when its last change was applied, 0 if it never got that far */
    record Attempt(
            long xid, long start, long applied, long end, Set<String> locks, Set<String> touches, boolean committed) {
        boolean conflictsWith(Attempt other) {
            return intersects(locks, other.locks)
                    || intersects(locks, other.touches)
                    || intersects(touches, other.locks);
        }

        boolean overlaps(Attempt other) {
            return start < other.end && other.start < end;
        }

        private static boolean intersects(Set<String> a, Set<String> b) {
            return a.stream().anyMatch(b::contains);
        }
    }

    private static final long WAIT_LIMIT_MS = 10_000;
    /** Most transactions {@link #holdForOverlap} holds open, and for how long each. */
    private static final int MAX_HOLDS = 10;

    private static final long HOLD_MS = 2;

    private final Object monitor = new Object();
    private final Map<String, Map<Object, Object>> committed = new TreeMap<>();
    private final List<Commit> commits = new ArrayList<>();
    private final List<Attempt> attempts = new ArrayList<>();
    private final Map<String, FakeSession> lockOwners = new HashMap<>();
    private final Map<Long, Script> scripts = new HashMap<>();
    private final Map<Long, Integer> attemptCounts = new HashMap<>();
    private final List<FakeSession> sessions = new ArrayList<>();
    private final Set<String> flags = new HashSet<>();
    private long clock;
    private int open;
    private int maxOpen;
    private int holds;
    private int lockWaits;

    /** Applies {@code transactions} one after another on one session: the serial run to compare with. */
    static List<Commit> serialRun(List<SourceTransaction> transactions) throws SQLException {
        FakeDatabase db = new FakeDatabase();
        FakeSession session = db.newSession();
        for (SourceTransaction tx : transactions) {
            session.apply(tx, false);
            session.commit(tx);
        }
        return db.commits();
    }

    FakeSession newSession() {
        synchronized (monitor) {
            FakeSession session = new FakeSession(this, monitor, 100 + sessions.size());
            sessions.add(session);
            return session;
        }
    }

    List<TransactionApplier> newSessions(int count) {
        List<TransactionApplier> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            created.add(newSession());
        }
        return created;
    }

    void script(long xid, Script script) {
        synchronized (monitor) {
            scripts.put(xid, script);
        }
    }

    @Override
    public int[] blockingPids(int pid) {
        synchronized (monitor) {
            FakeSession waiter = session(pid);
            FakeSession owner = waiter.waitingFor() == null ? null : lockOwners.get(waiter.waitingFor());
            return owner == null ? new int[0] : new int[] {owner.backendPid()};
        }
    }

    @Override
    public String describe(int pid) {
        return "fake session " + pid;
    }

    @Override
    public void cancel(int pid) {
        synchronized (monitor) {
            session(pid).requestCancel();
            monitor.notifyAll();
        }
    }

    List<Commit> commits() {
        synchronized (monitor) {
            return List.copyOf(commits);
        }
    }

    List<Long> committedXids() {
        synchronized (monitor) {
            return commits.stream().map(Commit::xid).toList();
        }
    }

    List<Attempt> attempts() {
        synchronized (monitor) {
            return List.copyOf(attempts);
        }
    }

    int attemptsOf(long xid) {
        synchronized (monitor) {
            return attemptCounts.getOrDefault(xid, 0);
        }
    }

    /** The most transactions that were open at once. */
    int maxOpen() {
        synchronized (monitor) {
            return maxOpen;
        }
    }

    int openTransactions() {
        synchronized (monitor) {
            return open;
        }
    }

    /** How many times a lock request had to wait for another transaction. */
    int lockWaits() {
        synchronized (monitor) {
            return lockWaits;
        }
    }

    boolean allSessionsClosed() {
        synchronized (monitor) {
            return sessions.stream().allMatch(FakeSession::isClosed);
        }
    }

    boolean isLocked(String key) {
        synchronized (monitor) {
            return lockOwners.containsKey(key);
        }
    }

    /**
     * Waits until {@code condition} holds, like a statement would if {@code session} is not null (a
     * cancel ends the wait with SQLState 57014); fails after ten seconds so a broken scheduler makes
     * the test fail rather than hang. Woken by every change of the database and by {@link #poke()}.
     */
    void await(FakeSession session, BooleanSupplier condition, String what) throws SQLException {
        synchronized (monitor) {
            long deadline = System.currentTimeMillis() + WAIT_LIMIT_MS;
            while (!condition.getAsBoolean()) {
                if (session != null) {
                    session.checkCancel();
                }
                waitUntil(deadline, what);
            }
        }
    }

    /** Wakes every {@link #await} to re-check its condition (something outside the database changed). */
    void poke() {
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    /** Raises a named flag for staged transactions to wait on. */
    void signal(String flag) {
        synchronized (monitor) {
            flags.add(flag);
            monitor.notifyAll();
        }
    }

    boolean signalled(String flag) {
        synchronized (monitor) {
            return flags.contains(flag);
        }
    }

    /** True if an attempt at {@code xid} was rolled back. */
    boolean rolledBack(long xid) {
        synchronized (monitor) {
            return attempts.stream().anyMatch(a -> a.xid() == xid && !a.committed());
        }
    }

    /** Asserts that no two attempts that share a lock overlapped, and that each barrier ran alone. */
    void assertNoConflictingOverlap(Set<Long> barriers) {
        List<Attempt> all = attempts();
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                Attempt a = all.get(i);
                Attempt b = all.get(j);
                boolean mustNotOverlap = a.conflictsWith(b) || barriers.contains(a.xid()) || barriers.contains(b.xid());
                assertTrue(!mustNotOverlap || !a.overlaps(b), "xid " + a.xid() + " overlapped xid " + b.xid());
            }
        }
    }

    /**
     * With overlap: every committed attempt that overlapped the committed attempt of an earlier transaction it
     * conflicts with started only once that one had applied, and each barrier ran alone.
     *
     * @param order the transactions' xids in commit order
     * @return how many such overlapping pairs there were
     */
    int assertOverlapOnlyAfterApplied(List<Long> order, Set<Long> barriers) {
        List<Attempt> all = attempts();
        int overlapped = 0;
        for (Attempt a : all) {
            for (Attempt b : all) {
                boolean barrier = barriers.contains(a.xid()) || barriers.contains(b.xid());
                if (a == b || !a.overlaps(b) || !(barrier || a.conflictsWith(b))) {
                    continue;
                }
                assertTrue(!barrier, "barrier xid " + a.xid() + " overlapped xid " + b.xid());
                if (a.committed() && b.committed() && order.indexOf(a.xid()) < order.indexOf(b.xid())) {
                    assertTrue(
                            a.applied() > 0 && b.start() > a.applied(),
                            "xid " + b.xid() + " started before xid " + a.xid() + ", which it conflicts with, applied");
                    overlapped++;
                }
            }
        }
        return overlapped;
    }

    // --- called by FakeSession, holding the monitor ---

    int begin(FakeSession session, long xid) {
        open++;
        maxOpen = Math.max(maxOpen, open);
        session.startedAt(++clock);
        monitor.notifyAll();
        return attemptCounts.merge(xid, 1, Integer::sum);
    }

    /**
     * Keeps a transaction open for a moment, the first few times and until two were open at once: fake
     * transactions take no time, so on a busy machine one could commit before the next worker begins, and
     * a scheduler that allows overlap would not show it.
     */
    void holdForOverlap() {
        if (maxOpen < 2 && holds < MAX_HOLDS) {
            holds++;
            try {
                monitor.wait(HOLD_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The next tick of the logical clock. */
    long tick() {
        return ++clock;
    }

    /** Whether an open transaction other than {@code session}'s inserted {@code key} into {@code table}. */
    boolean insertedByAnother(FakeSession session, String table, Object key) {
        if (committedTable(table).containsKey(key)) {
            return false;
        }
        return sessions.stream().anyMatch(other -> other != session && other.wroteRow(table, key));
    }

    Script scriptOf(long xid) {
        return scripts.get(xid);
    }

    void lock(FakeSession session, String key) throws SQLException {
        FakeSession owner = lockOwners.get(key);
        if (owner != null && owner != session) {
            lockWaits++;
        }
        long deadline = System.currentTimeMillis() + WAIT_LIMIT_MS;
        while ((owner = lockOwners.get(key)) != null && owner != session) {
            session.waitFor(key);
            try {
                session.checkCancel();
                waitUntil(deadline, "lock " + key);
            } finally {
                session.waitFor(null);
            }
        }
        lockOwners.put(key, session);
    }

    Map<Object, Object> committedTable(String table) {
        return committed.getOrDefault(table, Map.of());
    }

    /** Ends the session's transaction: publishes its writes if {@code commit}, releases its locks. */
    void end(FakeSession session, long xid, boolean commit) {
        if (commit) {
            session.publish(committed);
            committed.values().removeIf(Map::isEmpty);
            Map<String, Map<Object, Object>> copy = new TreeMap<>();
            committed.forEach((table, rows) -> copy.put(table, Map.copyOf(rows)));
            commits.add(new Commit(xid, copy));
        }
        attempts.add(new Attempt(
                xid, session.startedAt(), session.appliedAt(), ++clock, session.locks(), session.touches(), commit));
        lockOwners.values().removeIf(owner -> owner == session);
        open--;
        monitor.notifyAll();
    }

    private FakeSession session(int pid) {
        return sessions.stream().filter(s -> s.backendPid() == pid).findFirst().orElseThrow();
    }

    private void waitUntil(long deadline, String what) {
        long left = deadline - System.currentTimeMillis();
        if (left <= 0) {
            throw new IllegalStateException("fake database: timed out waiting for " + what);
        }
        try {
            monitor.wait(left);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + what, e);
        }
    }

    static void assertSameHistory(List<Commit> expected, List<Commit> actual) {
        assertEquals(expected.size(), actual.size(), "number of commits");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), "commit " + (i + 1));
        }
    }

    static Set<Long> xids(List<SourceTransaction> transactions) {
        Set<Long> xids = new HashSet<>();
        transactions.forEach(tx -> xids.add(tx.xid()));
        return xids;
    }
}
