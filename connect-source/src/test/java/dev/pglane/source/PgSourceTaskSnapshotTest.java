package dev.pglane.source;

import static dev.pglane.source.SourceTaskServer.event;
import static dev.pglane.source.SourceTaskServer.marker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.TransactionKey;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.SnapshotChunk;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The snapshot on a real PostgreSQL: existing rows arrive in chunk transactions while changes keep streaming. */
class PgSourceTaskSnapshotTest {

    @RegisterExtension
    static final SourceTaskServer server = new SourceTaskServer(
            "CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
            "CREATE TABLE public.lines (id int PRIMARY KEY, qty int)",
            "INSERT INTO public.orders SELECT g, 'order ' || g FROM generate_series(1, 1000) g",
            "CREATE TABLE public.accounts (id int PRIMARY KEY, balance int NOT NULL, doc text)",
            "ALTER TABLE public.accounts ALTER COLUMN doc SET STORAGE EXTERNAL",
            "INSERT INTO public.accounts SELECT g, 0, repeat(md5(g::text), 100) FROM generate_series(1, 2000) g",
            "CREATE TABLE public.events (kind text, body text)",
            "ALTER TABLE public.events REPLICA IDENTITY FULL",
            "INSERT INTO public.events SELECT 'seed', 'event ' || (g % 50) FROM generate_series(1, 600) g",
            "CREATE TABLE public.gapped (id int PRIMARY KEY)",
            "INSERT INTO public.gapped SELECT generate_series(1, 300)",
            "CREATE TABLE public.once (id int PRIMARY KEY)",
            "INSERT INTO public.once SELECT generate_series(1, 200)",
            "CREATE TABLE public.odd_keys (name text, day date, v int, PRIMARY KEY (name, day))",
            "INSERT INTO public.odd_keys SELECT k, date '2025-01-01' + d, d FROM unnest(ARRAY['plain', 'it''s',"
                    + " 'back\\slash', 'x''); DROP TABLE public.orders; --', E'tab\\there', 'zz']) k,"
                    + " generate_series(0, 29) d",
            "CREATE TABLE public.wide (id int PRIMARY KEY, doc text)",
            "ALTER TABLE public.wide ALTER COLUMN doc SET STORAGE EXTERNAL",
            "INSERT INTO public.wide SELECT g, repeat(md5(g::text), 100) FROM generate_series(1, 400) g",
            "ANALYZE public.wide");

    @Test
    void existingRowsArriveInChunkTransactionsEachWithAnEndThatSaysWhereTheSnapshotStands() throws Exception {
        PgSourceTask task = server.start(config("snap_chunks", "public\\.orders", 100, 2), null);
        List<SourceRecord> records = SourceTaskServer.pollUntil(task, snapshotDone());

        List<Marker.End> chunkEnds =
                ends(records).stream().filter(e -> e.snapshot() != null).toList();
        assertEquals(10, chunkEnds.size(), "1000 rows in chunks of 100");
        assertTrue(chunkEnds.stream().allMatch(e -> e.snapshot().table().equals("public.orders")));
        assertEquals(1, chunkEnds.stream().filter(e -> e.snapshot().tableDone()).count());
        assertTrue(chunkEnds.get(chunkEnds.size() - 1).snapshot().snapshotDone());
        assertEquals(
                0, chunkEnds.get(0).snapshot().chunk(), "with two threads, the table's first chunk goes out first");
        assertEquals(
                List.of(0L),
                chunkEnds.stream()
                        .filter(e -> e.snapshot().tableStart())
                        .map(e -> e.snapshot().chunk())
                        .toList(),
                "only the first chunk opens the read of the whole table");
        assertEquals(
                1000L, chunkEnds.stream().mapToLong(Marker.End::eventCount).sum(), "each END counts its chunk's rows");
        List<SnapshotChunk> inKeyOrder = chunkEnds.stream()
                .map(Marker.End::snapshot)
                .sorted(java.util.Comparator.comparingLong(SnapshotChunk::chunk))
                .toList();
        for (int i = 0; i < inKeyOrder.size(); i++) {
            SnapshotChunk.KeyRange range = inKeyOrder.get(i).range();
            assertEquals(List.of("id"), range.columns());
            assertEquals(i == 0 ? null : List.of(Integer.toString(100 * i + 1)), range.lower(), "chunk " + i);
            assertEquals(i == 9 ? null : List.of(Integer.toString(100 * i + 101)), range.upper(), "chunk " + i);
        }

        Map<Long, Long> rowsPerXid = new HashMap<>();
        List<Integer> ids = new ArrayList<>();
        for (SourceRecord record : records) {
            if (marker(record) == null) {
                ChangeEvent event = event(record);
                assertEquals(Op.READ, event.op());
                assertEquals("true", event.source().snapshot());
                ids.add(event.after().getInt32("id"));
                rowsPerXid.merge(TransactionKey.xid(record.key()), 1L, Long::sum);
            }
        }
        assertEquals(1000, ids.stream().distinct().count());
        for (Marker.End end : chunkEnds) {
            assertEquals(end.eventCount(), rowsPerXid.getOrDefault(end.xid(), 0L), "the rows of xid " + end.xid());
        }
        SourceRecord last = records.get(records.size() - 1);
        assertNull(last.sourceOffset().get(SourceOffset.SNAPSHOT), "a finished snapshot leaves no progress behind");
        assertEquals(1.0, server.metricValue("snapshot-tables"));
        assertEquals(1.0, server.metricValue("snapshot-tables-done"));
        assertEquals(10.0, server.metricValue("snapshot-chunks-sent"));
        assertEquals(1000.0, server.metricValue("snapshot-rows-sent"));
        assertEquals(0.0, server.metricValue("snapshot-seconds-left"), "nothing left once every row is sent");
        assertNotNull(records.get(0).sourceOffset().get(SourceOffset.SNAPSHOT), "START records the snapshot");
    }

    @Test
    void changesWhileChunksAreReadAreNeverUndoneByAChunk() throws Exception {
        PgSourceTask task = server.start(config("snap_race", "public\\.accounts", 50, 2), null);
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread writer = new Thread(() -> write(writing));
        List<SourceRecord> records;
        try (LogCapture log = LogCapture.start()) {
            writer.start();
            records = new ArrayList<>(SourceTaskServer.pollUntil(task, snapshotDone()));
            writing.set(false);
            writer.join();
            assertEquals(
                    List.of(),
                    log.lines().stream()
                            .filter(l -> l.contains("schema changed"))
                            .toList(),
                    "the Relation message before the table's first change of the session is no schema change");
        }
        server.sql("INSERT INTO public.accounts VALUES (-1, 0, 'sentinel')");
        records.addAll(SourceTaskServer.pollUntil(task, hasId(-1)));

        Map<Integer, Map<String, Object>> target = replay(records);
        assertEquals(source("SELECT id, balance, doc FROM public.accounts"), target);
        assertTrue(
                records.stream().anyMatch(r -> marker(r) == null && event(r).pendingSnapshot()),
                "changes of the table were marked pending while it was snapshotted");
    }

    @Test
    void aRestartInTheMiddleContinuesWithTheNextChunk() throws Exception {
        Map<String, String> props = config("snap_restart", "public\\.orders", 100, 1);
        PgSourceTask first = server.start(props, null);
        List<SourceRecord> before = SourceTaskServer.pollUntil(first, chunkEnds(3));
        first.stop();
        SourceRecord thirdEnd = before.stream()
                .filter(r -> marker(r) instanceof Marker.End e
                        && e.snapshot() != null
                        && e.snapshot().chunk() == 2)
                .findFirst()
                .orElseThrow();
        List<Integer> sentBefore = readIds(before.subList(0, before.indexOf(thirdEnd)));
        assertEquals(
                300,
                sentBefore.size(),
                before.stream()
                        .map(r -> marker(r) == null
                                ? event(r).op().code() + event(r).after().get("id")
                                : marker(r).toString())
                        .toList()
                        .toString());

        PgSourceTask second = server.start(props, new HashMap<>(thirdEnd.sourceOffset()));
        List<SourceRecord> resumed = SourceTaskServer.pollUntil(second, snapshotDone());
        assertTrue(
                ends(resumed).stream()
                        .noneMatch(e -> e.snapshot() != null && e.snapshot().tableStart()),
                "a run resumed past the table's start opens no read of the whole table, so a target is not emptied");
        List<Integer> sentAfter = readIds(resumed);
        assertEquals(700, sentAfter.size(), "the second run sends only the chunks the first did not finish");
        List<Integer> all = new ArrayList<>(sentBefore);
        all.addAll(sentAfter);
        assertEquals(1000, all.stream().distinct().count());
    }

    @Test
    void aKeylessTableArrivesWholeThoughRowsAreInsertedUpdatedAndDeletedMeanwhile() throws Exception {
        PgSourceTask task = server.start(config("snap_keyless", "public\\.events", 40, 2), null);
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            while (writing.get()) {
                int n = ThreadLocalRandom.current().nextInt(50);
                execute("UPDATE public.events SET body = body || '+' WHERE ctid = (SELECT ctid FROM public.events"
                        + " WHERE body = 'event " + n + "' LIMIT 1)");
                execute("DELETE FROM public.events WHERE ctid = (SELECT ctid FROM public.events WHERE body = 'event "
                        + (n + 1) % 50 + "' LIMIT 1)");
                execute("INSERT INTO public.events VALUES ('new', 'event " + n + "')");
            }
        });
        writer.start();
        List<SourceRecord> records = new ArrayList<>(SourceTaskServer.pollUntil(task, snapshotDone()));
        writing.set(false);
        writer.join();
        server.sql("INSERT INTO public.events VALUES ('sentinel', 'end')");
        records.addAll(SourceTaskServer.pollUntil(
                task,
                rs -> rs.stream()
                        .anyMatch(r -> marker(r) == null
                                && event(r).after() != null
                                && "sentinel".equals(event(r).after().getString("kind")))));

        // values alone identify a keyless row: a multiset of them, as a consumer applying the records holds
        Map<String, Integer> target = new TreeMap<>();
        for (SourceRecord record : records) {
            if (marker(record) != null) {
                continue;
            }
            ChangeEvent event = event(record);
            if (event.before() != null) {
                target.merge(rowText(event.before()), -1, Integer::sum);
            }
            if (event.after() != null) {
                target.merge(rowText(event.after()), 1, Integer::sum);
            }
        }
        target.values().removeIf(n -> n == 0);
        Map<String, Integer> source = new TreeMap<>();
        try (Connection c = server.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT kind, body FROM public.events")) {
            while (rs.next()) {
                source.merge(rs.getString(1) + "|" + rs.getString(2), 1, Integer::sum);
            }
        }
        assertEquals(source, target);
    }

    @Test
    void wideRowsAreReadInChunksOfFewerRowsThatKeepToTheByteBound() throws Exception {
        Map<String, String> props = config("snap_wide", "public\\.wide", 10_000, 1);
        props.put(SnapshotSettings.SNAPSHOT_CHUNK_BYTES, Integer.toString(256 * 1024));
        PgSourceTask task = server.start(props, null);
        List<SourceRecord> records = SourceTaskServer.pollUntil(task, snapshotDone());
        assertEquals(400, readIds(records).stream().distinct().count());
        // 400 rows of some 3.3 KB: 1.3 MB in chunks of 256 KB, not one chunk of 10,000 rows
        long chunks = ends(records).stream().filter(e -> e.snapshot() != null).count();
        assertTrue(chunks >= 4 && chunks <= 10, chunks + " chunks");
    }

    @Test
    void keysOfAnyTextAndSeveralColumnsBoundChunksExactly() throws Exception {
        PgSourceTask task = server.start(config("snap_odd", "public\\.odd_keys", 7, 2), null);
        List<SourceRecord> records = SourceTaskServer.pollUntil(task, snapshotDone());
        List<String> keys = records.stream()
                .filter(r -> marker(r) == null)
                .map(r -> event(r).after().getString("name") + "/"
                        + event(r).after().get("day"))
                .toList();
        assertEquals(180, keys.size(), "6 names by 30 days, in chunks of 7");
        assertEquals(180, keys.stream().distinct().count());
        assertEquals(
                26, ends(records).stream().filter(e -> e.snapshot() != null).count());
        try (Connection c = server.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM public.orders")) {
            rs.next();
            assertEquals(1000, rs.getInt(1), "no key value ran as SQL");
        }
    }

    @Test
    void whenNeededSendsEveryRowAgainOnceTheSlotIsLostUnderTheStoredOffset() throws Exception {
        Map<String, String> props = config("snap_needed", "public\\.gapped", 100, 1);
        props.put(SnapshotSettings.SNAPSHOT_MODE, "when_needed");
        PgSourceTask first = server.start(props, null);
        List<SourceRecord> sent = SourceTaskServer.pollUntil(first, snapshotDone());
        Map<String, Object> stored = new HashMap<>(sent.get(sent.size() - 1).sourceOffset());
        assertNull(stored.get(SourceOffset.SNAPSHOT));
        first.stop();
        dropOnceReleased("snap_needed");
        server.sql("INSERT INTO public.gapped VALUES (1000)");

        PgSourceTask second = server.start(props, stored);
        List<Integer> again = readIds(SourceTaskServer.pollUntil(second, snapshotDone()));
        assertEquals(301, again.size(), "every row again, the one committed in the gap too");
        assertTrue(again.contains(1000));
    }

    @Test
    void initialOnlyStopsStreamingOnceTheSnapshotIsOnKafka() throws Exception {
        Map<String, String> props = config("snap_once", "public\\.once", 100, 1);
        props.put(SnapshotSettings.SNAPSHOT_MODE, "initial_only");
        PgSourceTask task = server.start(props, null);
        List<SourceRecord> sent = SourceTaskServer.pollUntil(task, snapshotDone());
        assertEquals(200, readIds(sent).size());
        // the poll after the acknowledgements sees the snapshot delivered and stops
        assertNull(task.poll());
        server.sql("INSERT INTO public.once VALUES (1000)");
        long quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (System.nanoTime() < quietUntil) {
            List<SourceRecord> more = task.poll();
            if (more != null) {
                more.forEach(r -> KafkaAcks.stored(task, r));
                assertTrue(
                        more.stream().noneMatch(r -> marker(r) == null && event(r).op() == Op.CREATE),
                        "a change after the snapshot: " + more);
            }
        }
        task.stop();
        PgSourceTask restarted =
                server.start(props, new HashMap<>(sent.get(sent.size() - 1).sourceOffset()));
        assertNull(restarted.poll(), "a restart after the snapshot streams nothing either");
    }

    /** Drops the slot once the stopped task's walsender has let go of it. */
    private static void dropOnceReleased(String slot) throws Exception {
        long deadline = System.nanoTime() + SourceTaskServer.DEADLINE_NANOS;
        while (true) {
            try {
                server.sql("SELECT pg_drop_replication_slot('" + slot + "')");
                return;
            } catch (SQLException e) {
                assertTrue(System.nanoTime() < deadline, "the slot stayed active: " + e.getMessage());
                Thread.sleep(50);
            }
        }
    }

    @Test
    void snapshotModeNeverSendsOnlyChanges() throws Exception {
        Map<String, String> props = config("snap_never", "public\\.orders", 100, 1);
        props.put(SnapshotSettings.SNAPSHOT_MODE, "never");
        PgSourceTask task = server.start(props, null);
        server.sql("UPDATE public.orders SET note = 'changed' WHERE id = 5");
        List<SourceRecord> records = SourceTaskServer.pollUntil(task, SourceTaskServer.ends(1));
        List<ChangeEvent> changes = records.stream()
                .filter(r -> marker(r) == null)
                .map(SourceTaskServer::event)
                .toList();
        assertEquals(1, changes.size());
        assertEquals(Op.UPDATE, changes.get(0).op());
        assertFalse(changes.get(0).pendingSnapshot());
    }

    private static Map<String, String> config(String slot, String tables, int chunkRows, int threads) {
        return config(server, slot, tables, chunkRows, threads);
    }

    /** A task config that snapshots {@code tables} in chunks of {@code chunkRows} rows on {@code threads} threads. */
    static Map<String, String> config(SourceTaskServer server, String slot, String tables, int chunkRows, int threads) {
        Map<String, String> props = server.config(
                slot,
                Map.of(
                        SnapshotSettings.SNAPSHOT_MODE,
                        "initial",
                        PgSourceConfig.TABLE_INCLUDE_LIST,
                        tables,
                        SnapshotSettings.SNAPSHOT_CHUNK_ROWS,
                        Integer.toString(chunkRows),
                        SnapshotSettings.SNAPSHOT_THREADS,
                        Integer.toString(threads)));
        return new HashMap<>(props);
    }

    /** Random updates that keep the TOASTed doc, deletes and inserts, until told to stop. */
    private static void write(AtomicBoolean writing) {
        int next = 10_000;
        while (writing.get()) {
            int id = ThreadLocalRandom.current().nextInt(1, 2001);
            execute("UPDATE public.accounts SET balance = balance + 1 WHERE id = " + id);
            if (id % 7 == 0) {
                execute("DELETE FROM public.accounts WHERE id = " + (id + 1));
            }
            if (id % 5 == 0) {
                execute("INSERT INTO public.accounts VALUES (" + next++ + ", 1, 'short')");
            }
            if (id % 11 == 0) {
                execute("UPDATE public.accounts SET doc = 'rewritten ' || id WHERE id = " + (id + 2));
            }
        }
    }

    private static void execute(String sql) {
        try {
            server.sql(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The rows a consumer ends with that applies the records as the sink does: a snapshot row or an insert puts the
     * row, an update replaces it keeping its unchanged TOAST values (and is left out when the row is missing and
     * values are), a delete removes it.
     */
    private static Map<Integer, Map<String, Object>> replay(List<SourceRecord> records) {
        Map<Integer, Map<String, Object>> rows = new TreeMap<>();
        for (SourceRecord record : records) {
            if (marker(record) != null) {
                continue;
            }
            ChangeEvent event = event(record);
            switch (event.op()) {
                case READ, CREATE -> rows.put(event.after().getInt32("id"), values(event.after()));
                case UPDATE -> {
                    Struct key = event.before() != null ? event.before() : event.after();
                    Map<String, Object> previous = rows.remove(key.getInt32("id"));
                    Map<String, Object> now = values(event.after());
                    if (!event.unchangedToast().isEmpty()) {
                        if (previous == null) {
                            continue;
                        }
                        event.unchangedToast().forEach(c -> now.put(c, previous.get(c)));
                    }
                    rows.put(event.after().getInt32("id"), now);
                }
                case DELETE -> rows.remove(event.before().getInt32("id"));
                default -> throw new AssertionError("unexpected op " + event.op());
            }
        }
        return rows;
    }

    private static Map<String, Object> values(Struct row) {
        Map<String, Object> values = new HashMap<>();
        for (Field field : row.schema().fields()) {
            values.put(field.name(), row.get(field));
        }
        return values;
    }

    private static Map<Integer, Map<String, Object>> source(String query) throws SQLException {
        Map<Integer, Map<String, Object>> rows = new TreeMap<>();
        try (Connection c = server.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            while (rs.next()) {
                rows.put(rs.getInt(1), Map.of("id", rs.getInt(1), "balance", rs.getInt(2), "doc", rs.getString(3)));
            }
        }
        return rows;
    }

    private static String rowText(Struct row) {
        return row.getString("kind") + "|" + row.getString("body");
    }

    static List<Marker.End> ends(List<SourceRecord> records) {
        return records.stream()
                .map(SourceTaskServer::marker)
                .filter(m -> m instanceof Marker.End)
                .map(m -> (Marker.End) m)
                .toList();
    }

    static List<Integer> readIds(List<SourceRecord> records) {
        return records.stream()
                .filter(r -> marker(r) == null && event(r).op() == Op.READ)
                .map(r -> event(r).after().getInt32("id"))
                .toList();
    }

    static Predicate<List<SourceRecord>> snapshotDone() {
        return records -> ends(records).stream()
                .anyMatch(e -> e.snapshot() != null && e.snapshot().snapshotDone());
    }

    static Predicate<List<SourceRecord>> chunkEnds(int count) {
        return records ->
                ends(records).stream().filter(e -> e.snapshot() != null).count() >= count;
    }

    private static Predicate<List<SourceRecord>> hasId(int id) {
        return records -> records.stream()
                .anyMatch(r -> marker(r) == null
                        && event(r).after() != null
                        && event(r).after().getInt32("id") == id);
    }
}
