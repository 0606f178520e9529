package dev.pglane.source;

import static dev.pglane.source.SourceTaskServer.ends;
import static dev.pglane.source.SourceTaskServer.marker;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.Marker;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Under a load that never lets the stream pause, what Kafka acknowledged reaches the slot within seconds, not only at
 * the status interval: the slot would otherwise hold back that much WAL, and the server's restart point more.
 */
class PgSourceTaskConfirmTest {
    private static final int BACKLOG_TRANSACTIONS = 3000;
    /** Well inside the 10 s status interval the test keeps, and wide enough for a slow machine. */
    private static final long CONFIRM_WITHIN_NANOS = TimeUnit.SECONDS.toNanos(4);

    @RegisterExtension
    static final SourceTaskServer server =
            new SourceTaskServer("CREATE TABLE public.orders (id int PRIMARY KEY, note text)");

    @Test
    void acknowledgedTransactionsAreConfirmedWhileTheReaderWaitsForFullLanes() throws Exception {
        String slot = "confirm_busy";
        PgSourceTask task = server.start(
                server.config(
                        slot,
                        Map.of(
                                PgSourceConfig.STATUS_INTERVAL_MS, "10000",
                                DecodingSettings.DECODER_QUEUE_CAPACITY, "1",
                                DecodingSettings.POLL_BATCH_MAX_RECORDS, "4")),
                null);
        writeBacklog();
        // the first transactions, acknowledged; then no more polls: the lanes fill and the reader waits for them
        List<SourceRecord> polled = SourceTaskServer.pollUntil(task, ends(3));
        long acknowledgedAt = System.nanoTime();
        Lsn acknowledged = polled.stream()
                .map(SourceTaskServer::marker)
                .filter(m -> m instanceof Marker.End)
                .map(m -> ((Marker.End) m).endLsn())
                .max(Lsn::compareTo)
                .orElseThrow();

        Lsn confirmed = server.confirmedFlush(slot);
        while (confirmed.compareTo(acknowledged) < 0) {
            assertTrue(
                    System.nanoTime() - acknowledgedAt < CONFIRM_WITHIN_NANOS,
                    "confirmed_flush_lsn stayed at " + confirmed + " for 4 s; Kafka acknowledged up to " + acknowledged
                            + ", and the status interval is 10 s");
            Thread.sleep(20);
            confirmed = server.confirmedFlush(slot);
        }
        assertTrue(
                polled.stream().filter(r -> marker(r) instanceof Marker.End).count() < BACKLOG_TRANSACTIONS,
                "the reader had a backlog left to wait with");
    }

    /** One row per transaction, so that the stream holds far more than the lanes take. */
    private static void writeBacklog() throws SQLException {
        try (Connection c = server.connect();
                PreparedStatement insert = c.prepareStatement("INSERT INTO public.orders VALUES (?, 'backlog')")) {
            for (int id = 1; id <= BACKLOG_TRANSACTIONS; id++) {
                insert.setInt(1, id);
                insert.executeUpdate();
            }
        }
    }
}
