package dev.pglane.source;

import static dev.pglane.source.SourceTaskServer.ends;
import static dev.pglane.source.SourceTaskServer.event;
import static dev.pglane.source.SourceTaskServer.marker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.EnumChoice;
import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.wire.SourceOffset;
import dev.pglane.wire.marker.Marker;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The task never lets the slot pass a change Kafka did not store, nor a change the server no longer has. */
class PgSourceTaskSafetyTest {
    @RegisterExtension
    static final SourceTaskServer server = new SourceTaskServer(
            "CREATE TABLE public.orders (id int PRIMARY KEY, note text)",
            "CREATE TABLE public.lines (id int PRIMARY KEY, qty int)");

    @BeforeEach
    void emptyTables() throws SQLException {
        server.sql("DELETE FROM public.orders", "DELETE FROM public.lines");
    }

    /** The record is named from its Connect data, or read back from the JSON the lanes wrote. */
    @ParameterizedTest
    // Avro needs a schema registry: AvroPipelineIT runs it against a real one
    @EnumSource(
            value = PayloadFormat.class,
            names = {"CONNECT", "JSON"})
    void aRecordConnectSkippedFailsTheTaskNamingItAndTheSlotStaysBeforeIt(PayloadFormat format) throws Exception {
        String slot = "safety_skipped_" + EnumChoice.valueOf(format);
        PgSourceTask task =
                server.start(server.config(slot, Map.of("payload.format", EnumChoice.valueOf(format))), null);
        int id = 100 + 10 * format.ordinal();
        server.sql("INSERT INTO public.orders VALUES (" + id + ", 'stored')");
        List<SourceRecord> first = SourceTaskServer.pollUntil(task, ends(1));
        Marker.End stored = (Marker.End) marker(first.get(first.size() - 1));
        server.awaitConfirmedFlush(slot, stored.endLsn());

        server.sql("INSERT INTO public.orders VALUES (" + (id + 1) + ", 'skipped')");
        List<SourceRecord> second = pollWithoutAcknowledging(task, 2);
        SourceRecord skipped = second.get(0);
        SourceRecord end = second.get(1);
        Marker.End lost = (Marker.End) marker(end);
        // what Connect does under errors.tolerance=all when a send fails: done, without metadata
        task.commitRecord(skipped, null);
        KafkaAcks.stored(task, end);

        ConnectException e = assertThrows(ConnectException.class, task::poll);
        String change =
                "a change of public.orders at LSN " + event(skipped).source().lsn() + " (xid " + lost.xid() + ")";
        assertTrue(e.getMessage().contains("Connect reported " + change), e.getMessage());
        assertTrue(e.getMessage().contains("Kafka did not store it"), e.getMessage());
        assertEquals(stored.endLsn(), server.confirmedFlush(slot), "the slot stays before the skipped change");
        assertThrows(ConnectException.class, task::poll, "and the task stays failed");
    }

    @Test
    void aRuntimeWithoutKafkaMayReportRecordsDoneWithoutMetadata() throws Exception {
        String slot = "safety_engine";
        PgSourceTask task = server.start(server.config(slot, Map.of("commit.requires.kafka", "false")), null);
        server.sql("INSERT INTO public.orders VALUES (3, 'taken by an engine')");
        List<SourceRecord> records = new ArrayList<>();
        while (records.stream().noneMatch(r -> marker(r) instanceof Marker.End)) {
            records.addAll(pollWithoutAcknowledging(task, 1));
        }
        // what Debezium's engine does once its consumer took a record
        records.forEach(r -> task.commitRecord(r, null));
        Marker.End end = (Marker.End) marker(records.get(records.size() - 1));
        server.awaitConfirmedFlush(slot, end.endLsn());
        task.poll(); // and the task runs on
    }

    @Test
    void settingsUnderWhichConnectSkipsRecordsAreRefusedAtStart() {
        ConnectException tolerance = assertThrows(
                ConnectException.class,
                () -> server.start(server.config("safety_tolerance", Map.of("errors.tolerance", "all")), null));
        assertTrue(
                tolerance.getMessage().contains("errors.tolerance=all would let Connect skip"), tolerance.getMessage());
        ConnectException transforms = assertThrows(
                ConnectException.class,
                () -> server.start(server.config("safety_transforms", Map.of("transforms", "route")), null));
        assertTrue(transforms.getMessage().contains("transformations (route)"), transforms.getMessage());
    }

    @Test
    void convertersThatDoNotFitThePayloadFormatAreRefusedAtStart() {
        ConnectException wrapped = assertThrows(
                ConnectException.class,
                () -> server.start(
                        server.config(
                                "safety_converter",
                                Map.of(
                                        "payload.format",
                                        "json",
                                        "value.converter",
                                        "org.apache.kafka.connect.json.JsonConverter")),
                        null));
        assertTrue(
                wrapped.getMessage()
                        .contains("payload.format=json writes the records' bytes in the decoder lanes, but"
                                + " value.converter is org.apache.kafka.connect.json.JsonConverter"),
                wrapped.getMessage());
    }

    @Test
    void aSlotDroppedUnderAStoredOffsetFailsTheTaskAndIsNotCreatedAgain() throws Exception {
        String slot = "safety_dropped";
        Map<String, String> props = server.config(slot, Map.of());
        Map<String, ?> offset = offsetAfterOneTransaction(props);
        dropOnceReleased(slot);
        server.sql("INSERT INTO public.orders VALUES (20, 'gap')");

        ConnectException e = assertThrows(ConnectException.class, () -> server.start(props, new HashMap<>(offset)));
        assertTrue(
                e.getMessage()
                        .startsWith("Replication slot '" + slot + "' does not exist, but connector task-test has a"
                                + " stored offset at end LSN "
                                + SourceOffset.fromMap(offset).commitEndLsn()),
                e.getMessage());
        assertEquals(List.of("0"), rows("SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'"));
    }

    @Test
    void allowGapRecreatesTheSlotAndGoesOnWithoutTheChangesInTheGap() throws Exception {
        String slot = "safety_gap";
        Map<String, String> props = server.config(slot, Map.of(PgSourceConfig.SLOT_RECREATE, "allow_gap"));
        Map<String, ?> offset = offsetAfterOneTransaction(props);
        dropOnceReleased(slot);
        server.sql("INSERT INTO public.orders VALUES (30, 'gap')");

        PgSourceTask task = server.start(props, new HashMap<>(offset));
        server.sql("INSERT INTO public.orders VALUES (31, 'after')");
        List<Object> ids = SourceTaskServer.pollUntil(task, ends(1)).stream()
                .filter(r -> marker(r) == null)
                .map(r -> event(r).after().get("id"))
                .toList();
        assertEquals(List.of(31), ids, "the row written while the slot was gone is the logged gap");
    }

    private static Map<String, ?> offsetAfterOneTransaction(Map<String, String> props) throws Exception {
        PgSourceTask first = server.start(props, null);
        server.sql("INSERT INTO public.orders VALUES (10, 'before')");
        List<SourceRecord> records = SourceTaskServer.pollUntil(first, ends(1));
        first.stop();
        return records.get(records.size() - 1).sourceOffset();
    }

    /** Drops the slot once the stopped task's walsender has let go of it. */
    private static void dropOnceReleased(String slot) throws SQLException {
        long deadline = System.nanoTime() + SourceTaskServer.DEADLINE_NANOS;
        while (!rows("SELECT pg_drop_replication_slot(slot_name)::text FROM pg_replication_slots"
                        + " WHERE slot_name = '" + slot + "' AND NOT active")
                .equals(List.of(""))) {
            assertTrue(System.nanoTime() < deadline, "slot " + slot + " stayed active");
            Thread.onSpinWait();
        }
    }

    /** Polls until {@code count} records after the START came, acknowledging none of them. */
    private static List<SourceRecord> pollWithoutAcknowledging(PgSourceTask task, int count) throws Exception {
        List<SourceRecord> polled = new ArrayList<>();
        long deadline = System.nanoTime() + SourceTaskServer.DEADLINE_NANOS;
        while (polled.size() < count) {
            assertTrue(System.nanoTime() < deadline, "polled only " + polled);
            try {
                List<SourceRecord> records = task.poll();
                if (records != null) {
                    records.stream()
                            .filter(r -> !(marker(r) instanceof Marker.Heartbeat))
                            .forEach(polled::add);
                }
            } catch (RetriableException e) {
                // a new session after a lost connection
            }
        }
        return polled;
    }

    private static List<String> rows(String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (var c = server.connect();
                var st = c.createStatement();
                var rs = st.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }
}
