package dev.pglane.source;

import static dev.pglane.source.SourceTaskServer.event;
import static dev.pglane.source.SourceTaskServer.marker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.capture.CapturedTables;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.Marker;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code snapshot.new.tables}: a table that joins the publication with rows in it, while the task runs or while it
 * is stopped, has those rows sent as a snapshot, and its changes stream on; without the option they never come.
 */
class PgSourceTaskNewTablesTest {
    private static final Map<String, String> TRACKING = Map.of(
            SnapshotSettings.SNAPSHOT_NEW_TABLES, "true",
            PgSourceConfig.TABLE_INCLUDE_LIST, "public\\.(orders|lines|joined\\w*)");

    @RegisterExtension
    static final SourceTaskServer server = new SourceTaskServer(
            "CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
            "CREATE TABLE public.lines (id int PRIMARY KEY, qty int)");

    @Test
    void aTableThatJoinsWhileTheTaskRunsIsSnapshottedThenStreamed() throws Exception {
        String slot = "new_tables_run";
        PgSourceTask task = server.start(server.config(slot, TRACKING), null);
        server.sql("INSERT INTO public.orders VALUES (1, 'before')");
        SourceTaskServer.pollUntil(task, SourceTaskServer.ends(1));
        createWithRows("joined_run", 3);
        server.sql("ALTER PUBLICATION " + slot + "_pub ADD TABLE public.joined_run");
        // seconds before the watch notices: a change of a row the target may not have yet
        server.sql("UPDATE public.joined_run SET note = 'changed on joining' WHERE id = 2");

        List<SourceRecord> snapshot = SourceTaskServer.pollUntil(task, tableDone("public.joined_run"));
        assertEquals(Set.of(1, 2, 3), ids(snapshot, "joined_run", Op.READ), "the rows it had when it joined");
        List<Boolean> updatesPending = snapshot.stream()
                .filter(r -> marker(r) == null && event(r).op() == Op.UPDATE)
                .map(r -> event(r).pendingSnapshot())
                .toList();
        assertEquals(List.of(true), updatesPending, "the update is marked pending_snapshot");
        long oid = oid("public.joined_run");
        SourceOffset last =
                SourceOffset.fromMap(snapshot.get(snapshot.size() - 1).sourceOffset());
        assertTrue(CapturedTables.parse(last.tables()).contains(oid), "the offsets carry it: " + last.tables());

        server.sql("INSERT INTO public.joined_run VALUES (4, 'streamed')");
        List<SourceRecord> streamed = SourceTaskServer.pollUntil(
                task, records -> !ids(records, "joined_run", Op.CREATE).isEmpty());
        assertEquals(Set.of(4), ids(streamed, "joined_run", Op.CREATE));
    }

    @Test
    void aTableThatJoinedWhileTheTaskWasStoppedIsSnapshottedAtTheNextStart() throws Exception {
        String slot = "new_tables_stopped";
        Map<String, String> props = server.config(slot, TRACKING);
        PgSourceTask first = server.start(props, null);
        server.sql("INSERT INTO public.lines VALUES (1, 10)");
        List<SourceRecord> before = SourceTaskServer.pollUntil(first, SourceTaskServer.ends(1));
        Map<String, ?> offset = before.get(before.size() - 1).sourceOffset();
        first.stop();
        createWithRows("joined_stopped", 2);
        server.sql("ALTER PUBLICATION " + slot + "_pub ADD TABLE public.joined_stopped");

        PgSourceTask second = server.start(props, new HashMap<>(offset));
        List<SourceRecord> snapshot = SourceTaskServer.pollUntil(second, tableDone("public.joined_stopped"));
        assertEquals(Set.of(1, 2), ids(snapshot, "joined_stopped", Op.READ));
        assertTrue(ids(snapshot, "lines", Op.READ).isEmpty(), "the tables captured before are not sent again");
    }

    @Test
    void withoutTheOptionAJoinedTablesRowsNeverComeAndTheOffsetsCarryNoTables() throws Exception {
        String slot = "new_tables_off";
        Map<String, String> props = new HashMap<>(TRACKING);
        props.remove(SnapshotSettings.SNAPSHOT_NEW_TABLES);
        PgSourceTask task = server.start(server.config(slot, props), null);
        createWithRows("joined_off", 2);
        server.sql("ALTER PUBLICATION " + slot + "_pub ADD TABLE public.joined_off");
        server.sql("INSERT INTO public.joined_off VALUES (3, 'streamed')");

        List<SourceRecord> polled = SourceTaskServer.pollUntil(
                task, records -> !ids(records, "joined_off", Op.CREATE).isEmpty());
        assertFalse(polled.stream().anyMatch(r -> marker(r) instanceof Marker.End end && end.snapshot() != null));
        assertTrue(ids(polled, "joined_off", Op.READ).isEmpty());
        assertNull(SourceOffset.fromMap(polled.get(polled.size() - 1).sourceOffset())
                .tables());
    }

    private static Predicate<List<SourceRecord>> tableDone(String table) {
        return records -> records.stream()
                .anyMatch(r -> marker(r) instanceof Marker.End end
                        && end.snapshot() != null
                        && end.snapshot().table().equals(table)
                        && end.snapshot().tableDone());
    }

    private static Set<Integer> ids(List<SourceRecord> records, String table, Op op) {
        Set<Integer> ids = new TreeSet<>();
        for (SourceRecord record : records) {
            if (marker(record) == null && record.topic().equals("shop.public." + table)) {
                var event = event(record);
                if (event.op() == op) {
                    ids.add((Integer) event.after().get("id"));
                }
            }
        }
        return ids;
    }

    private static void createWithRows(String table, int rows) throws SQLException {
        server.sql(
                "CREATE TABLE public." + table + " (id int PRIMARY KEY, note text)",
                "INSERT INTO public." + table + " SELECT g, 'existing' FROM generate_series(1, " + rows + ") g");
    }

    private static long oid(String table) throws SQLException {
        try (var c = server.connect();
                PreparedStatement st = c.prepareStatement("SELECT ?::regclass::oid")) {
            st.setString(1, table);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
