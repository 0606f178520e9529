package dev.pglane.sink.schedule;

import static dev.pglane.sink.schedule.SampleTables.account;
import static dev.pglane.sink.schedule.SampleTables.audit;
import static dev.pglane.sink.schedule.SampleTables.item;

import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.schedule.SampleTables.TxBuilder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Struct;

/**
 * A seeded stream of valid transactions on {@link SampleTables}: inserts, updates (some changing the
 * primary key or the unique email), deletes, child rows referencing parents, changes to the keyless
 * audit table, and now and then a TRUNCATE. Ids come from a small range, so transactions often
 * conflict and often do not. It tracks the source state so every old row it sends is the real one.
 */
final class RandomWorkload {
    private static final int IDS = 16;
    private static final String[] NOTES = {"a", "b", "c"};

    private final Random random;
    private final Map<Integer, Struct> accounts = new TreeMap<>();
    private final Map<Integer, Struct> items = new TreeMap<>();
    private final Map<String, Integer> notes = new TreeMap<>();
    private final Set<Long> barriers = new HashSet<>();
    private long nextXid = 1000;

    private RandomWorkload(long seed) {
        this.random = new Random(seed);
    }

    /** The workload of {@code seed}: its transactions and which of them are TRUNCATE barriers. */
    record Workload(List<SourceTransaction> transactions, Set<Long> barriers) {}

    static Workload generate(long seed, int count) {
        RandomWorkload workload = new RandomWorkload(seed);
        List<SourceTransaction> transactions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            transactions.add(workload.next());
        }
        return new Workload(transactions, Set.copyOf(workload.barriers));
    }

    private SourceTransaction next() {
        long xid = nextXid++;
        TxBuilder tx = new TxBuilder(xid);
        if (random.nextInt(40) == 0) {
            barriers.add(xid);
            notes.clear();
            return tx.truncate("audit").build();
        }
        int changes = 1 + random.nextInt(4);
        while (changes > 0) {
            changes -= change(tx) ? 1 : 0;
        }
        return tx.build();
    }

    /** Adds one random change; false if the chosen kind was not possible in the current state. */
    private boolean change(TxBuilder tx) {
        return switch (random.nextInt(9)) {
            case 0 -> insertAccount(tx);
            case 1 -> updateAccount(tx);
            case 2 -> delete(tx, "accounts", accounts);
            case 3 -> insertItem(tx);
            case 4 -> updateItem(tx);
            case 5 -> delete(tx, "items", items);
            case 6 -> insertAudit(tx);
            default -> changeAudit(tx);
        };
    }

    private boolean insertAccount(TxBuilder tx) {
        Integer id = freeId(accounts);
        if (id == null) {
            return false;
        }
        Struct row = account(id, freeEmail(null), random.nextInt(1000));
        accounts.put(id, row);
        tx.insert("accounts", row);
        return true;
    }

    private boolean updateAccount(TxBuilder tx) {
        Integer id = pick(accounts.keySet());
        if (id == null) {
            return false;
        }
        Struct before = accounts.remove(id);
        Integer newId = random.nextInt(4) == 0 ? freeId(accounts) : null;
        String email = random.nextInt(3) == 0 ? freeEmail(before.getString("email")) : before.getString("email");
        Struct after = account(newId == null ? id : newId, email, random.nextInt(1000));
        accounts.put((Integer) after.get("id"), after);
        tx.update("accounts", before, after);
        return true;
    }

    private boolean insertItem(TxBuilder tx) {
        Integer id = freeId(items);
        if (id == null) {
            return false;
        }
        Struct row = item(id, 1 + random.nextInt(IDS), random.nextInt(10));
        items.put(id, row);
        tx.insert("items", row);
        return true;
    }

    private boolean updateItem(TxBuilder tx) {
        Integer id = pick(items.keySet());
        if (id == null) {
            return false;
        }
        Struct before = items.get(id);
        long parent = random.nextBoolean() ? before.getInt64("account_id") : 1 + random.nextInt(IDS);
        Struct after = item(id, parent, random.nextInt(10));
        items.put(id, after);
        tx.update("items", before, after);
        return true;
    }

    private boolean delete(TxBuilder tx, String table, Map<Integer, Struct> rows) {
        Integer id = pick(rows.keySet());
        if (id == null) {
            return false;
        }
        tx.delete(table, rows.remove(id));
        return true;
    }

    private boolean insertAudit(TxBuilder tx) {
        String note = NOTES[random.nextInt(NOTES.length)];
        notes.merge(note, 1, Integer::sum);
        tx.insert("audit", audit(note));
        return true;
    }

    private boolean changeAudit(TxBuilder tx) {
        String note = pick(notes.keySet());
        if (note == null) {
            return false;
        }
        notes.computeIfPresent(note, (n, count) -> count == 1 ? null : count - 1);
        if (random.nextBoolean()) {
            tx.delete("audit", audit(note));
        } else {
            String newNote = NOTES[random.nextInt(NOTES.length)];
            notes.merge(newNote, 1, Integer::sum);
            tx.update("audit", audit(note), audit(newNote));
        }
        return true;
    }

    private Integer freeId(Map<Integer, Struct> rows) {
        for (int tries = 0; tries < 8; tries++) {
            int id = 1 + random.nextInt(IDS);
            if (!rows.containsKey(id)) {
                return id;
            }
        }
        return null;
    }

    /** A random email no account uses (or {@code current}, which the caller's row gives up), or null. */
    private String freeEmail(String current) {
        if (random.nextInt(3) == 0) {
            return null;
        }
        String email = "e" + random.nextInt(IDS / 2);
        boolean taken = accounts.values().stream().anyMatch(row -> email.equals(row.getString("email")));
        return taken && !email.equals(current) ? null : email;
    }

    private <T> T pick(Set<T> values) {
        if (values.isEmpty()) {
            return null;
        }
        List<T> list = new ArrayList<>(values);
        return list.get(random.nextInt(list.size()));
    }
}
