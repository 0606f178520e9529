package dev.pglane.source.pgoutput.capture;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGProperty;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;
import org.postgresql.replication.fluent.logical.ChainedLogicalStreamBuilder;

/**
 * One live replication session over pgjdbc ({@code replication=database}) on a pgoutput slot. It is started
 * before a scenario's SQL runs, so the walsender decodes while the transactions are still open, as it would in
 * production; it collects every XLogData payload until the fence message (a non-transactional
 * {@code pg_logical_emit_message} with prefix {@link #FENCE_PREFIX}) that ends a scenario. The fence is not kept.
 */
final class ReplicationCapture implements AutoCloseable {

    static final String FENCE_PREFIX = "pglane.capture.fence";

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    /** A payload and the LSN pgjdbc reports for it (the XLogData dataStart). */
    record Payload(LogSequenceNumber lsn, byte[] bytes) {}

    /** Where the session connects, and how it asks for pgoutput. */
    record Settings(String url, String publication, int protocolVersion) {}

    private final String slot;
    private final Connection connection;
    private final PGReplicationStream stream;
    private final List<Payload> payloads = new ArrayList<>();

    private ReplicationCapture(String slot, Connection connection, PGReplicationStream stream) {
        this.slot = slot;
        this.connection = connection;
        this.stream = stream;
    }

    /**
     * Creates a pgoutput slot and returns its consistent point. A fresh slot per scenario means decoding starts
     * at the scenario rather than re-reading the WAL of the ones before.
     */
    static LogSequenceNumber createSlot(Settings settings, String slot) throws SQLException {
        try (Connection connection = open(settings, null)) {
            return connection
                    .unwrap(PGConnection.class)
                    .getReplicationAPI()
                    .createReplicationSlot()
                    .logical()
                    .withSlotName(slot)
                    .withOutputPlugin("pgoutput")
                    .make()
                    .getConsistentPoint();
        }
    }

    /**
     * Starts streaming {@code slot} from {@code start}.
     *
     * @param streaming the {@code streaming} option value, or null to leave streaming off
     * @param sessionOptions server settings for the walsender session (libpq {@code options}), or null
     */
    static ReplicationCapture start(
            Settings settings, String slot, LogSequenceNumber start, String streaming, String sessionOptions)
            throws SQLException {
        Connection connection = open(settings, sessionOptions);
        try {
            ChainedLogicalStreamBuilder builder = connection
                    .unwrap(PGConnection.class)
                    .getReplicationAPI()
                    .replicationStream()
                    .logical()
                    .withSlotName(slot)
                    .withStartPosition(start)
                    .withSlotOption("proto_version", settings.protocolVersion())
                    .withSlotOption("publication_names", settings.publication())
                    .withSlotOption("messages", true)
                    .withStatusInterval(1, TimeUnit.SECONDS)
                    .withAutomaticFlush(false);
            if (streaming != null) {
                builder.withSlotOption("streaming", streaming);
            }
            return new ReplicationCapture(slot, connection, builder.start());
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /**
     * Reads (and keeps) payloads until the walsender has decoded the WAL up to {@code target}, as its
     * {@code pg_stat_replication.sent_lsn} shows on {@code sql}, a normal connection.
     */
    void awaitDecoded(Connection sql, String target) throws SQLException, InterruptedException {
        String check = "SELECT r.sent_lsn >= '" + target + "'::pg_lsn FROM pg_replication_slots s"
                + " JOIN pg_stat_replication r ON r.pid = s.active_pid WHERE s.slot_name = '" + slot + "'";
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            drain();
            try (Statement statement = sql.createStatement();
                    ResultSet result = statement.executeQuery(check)) {
                if (result.next() && result.getBoolean(1)) {
                    return;
                }
            }
            // Polling, bounded by the deadline: the server offers no notification for decoding progress.
            TimeUnit.MILLISECONDS.sleep(5);
        }
        throw new IllegalStateException(
                "the walsender of " + slot + " did not decode up to " + target + " within " + DEADLINE);
    }

    /** Reads until the fence and returns everything read in this session, the fence excluded. */
    List<Payload> readUntilFence() throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            if (drain()) {
                return List.copyOf(payloads);
            }
            // pgjdbc's polling pattern: readPending() never blocks, so the caller paces it.
            TimeUnit.MILLISECONDS.sleep(5);
        }
        throw new IllegalStateException("no fence within " + DEADLINE + " (after " + payloads.size() + " messages)");
    }

    @Override
    public void close() throws SQLException {
        try {
            stream.close();
        } finally {
            connection.close();
        }
    }

    /** Keeps every payload the server has already sent; true when the fence was among them (it is not kept). */
    private boolean drain() throws SQLException {
        for (ByteBuffer message = stream.readPending(); message != null; message = stream.readPending()) {
            byte[] bytes = Arrays.copyOfRange(
                    message.array(),
                    message.arrayOffset() + message.position(),
                    message.arrayOffset() + message.limit());
            if (isFence(bytes)) {
                return true;
            }
            payloads.add(new Payload(stream.getLastReceiveLSN(), bytes));
        }
        return false;
    }

    private static boolean isFence(byte[] payload) {
        return payload.length > 0
                && payload[0] == 'M'
                && new String(payload, StandardCharsets.ISO_8859_1).contains(FENCE_PREFIX + '\0');
    }

    private static Connection open(Settings settings, String sessionOptions) throws SQLException {
        Properties properties = new Properties();
        PGProperty.USER.set(properties, "postgres");
        PGProperty.REPLICATION.set(properties, "database");
        PGProperty.PREFER_QUERY_MODE.set(properties, "simple");
        PGProperty.ASSUME_MIN_SERVER_VERSION.set(properties, "9.4");
        if (sessionOptions != null) {
            PGProperty.OPTIONS.set(properties, sessionOptions);
        }
        return DriverManager.getConnection(settings.url(), properties);
    }
}
