package dev.pglane.source.reader;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.source.pgoutput.ProtocolVersion;
import dev.pglane.source.values.SessionSettings;
import dev.pglane.wire.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGProperty;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;
import org.postgresql.replication.fluent.logical.ChainedLogicalStreamBuilder;

/**
 * The dedicated pgjdbc replication connection ({@code replication=database}) and the pgoutput stream on
 * it. The session settings make the server print values in the one text form the decoders read; the
 * socket timeout stays 0 because pgjdbc's copy protocol breaks on a read timeout (the reader polls with
 * {@code readPending()} instead); and the driver's automatic flush is off, because it can confirm past a
 * transaction Kafka has not acknowledged yet.
 */
public final class ReplicationConnection {
    /** What to stream. */
    public record StreamRequest(
            String slot,
            String publication,
            ProtocolVersion protocol,
            boolean messages,
            boolean streaming,
            OriginFilter origins,
            Duration statusInterval,
            Lsn start) {}

    private final Connection connection;
    private final ServerIdentity identity;
    private final int walsenderPid;

    private ReplicationConnection(Connection connection, ServerIdentity identity, int walsenderPid) {
        this.connection = connection;
        this.identity = identity;
        this.walsenderPid = walsenderPid;
    }

    public static ReplicationConnection open(DatabaseEndpoint endpoint, String applicationName) throws SQLException {
        Properties props = new Properties();
        PGProperty.REPLICATION.set(props, "database");
        PGProperty.PREFER_QUERY_MODE.set(props, "simple");
        PGProperty.ASSUME_MIN_SERVER_VERSION.set(props, "9.4");
        PGProperty.SOCKET_TIMEOUT.set(props, 0);
        PGProperty.OPTIONS.set(props, SessionSettings.OPTIONS);
        Connection connection = endpoint.connect(applicationName, props);
        try {
            return new ReplicationConnection(connection, ServerIdentity.of(connection), backendPid(connection));
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** The walsender serving this connection: its backend is the walsender process. */
    private static int backendPid(Connection connection) throws SQLException {
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_catalog.pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    public int walsenderPid() {
        return walsenderPid;
    }

    /** The server this connection replicates from. */
    public ServerIdentity identity() {
        return identity;
    }

    /**
     * Starts streaming; the server begins at the later of {@code start} and the slot's confirmed position. Before
     * PostgreSQL 16 the {@code origin} option does not exist: the reader filters by the Origin message then.
     */
    public PGReplicationStream start(StreamRequest request) throws SQLException {
        PGConnection pg = connection.unwrap(PGConnection.class);
        ChainedLogicalStreamBuilder builder =
                pg.getReplicationAPI().replicationStream().logical();
        if (request.protocol().filtersOrigin()) {
            builder.withSlotOption("origin", request.origins().optionValue());
        }
        return builder.withSlotName(request.slot())
                .withStartPosition(LogSequenceNumber.valueOf(request.start().asLong()))
                .withSlotOption("proto_version", request.protocol().number())
                .withSlotOption("publication_names", pg.escapeIdentifier(request.publication()))
                .withSlotOption("messages", request.messages())
                .withSlotOption("streaming", request.streaming() ? "on" : "off")
                .withStatusInterval((int) request.statusInterval().toMillis(), TimeUnit.MILLISECONDS)
                .withAutomaticFlush(false)
                .start();
    }

    /**
     * {@code ALTER_REPLICATION_SLOT} (PostgreSQL 17 and newer): turns the slot's failover on or off. Run before
     * {@link #start}; the server waits for a slot another walsender holds until that one lets go.
     */
    public void alterSlotFailover(String slot, boolean failover) throws SQLException {
        PGConnection pg = connection.unwrap(PGConnection.class);
        try (Statement st = connection.createStatement()) {
            st.execute("ALTER_REPLICATION_SLOT " + pg.escapeIdentifier(slot) + " (FAILOVER " + failover + ")");
        }
    }

    /**
     * Drops the socket at once, without the polite CopyDone: after it, pgjdbc would read on until the
     * server has sent the rest of the transaction it is decoding, which takes as long as that is large.
     * Safe from any thread, also while the reader is blocked in the stream.
     */
    public void abort() {
        try {
            connection.abort(Runnable::run);
        } catch (SQLException ignored) {
            // abort only fails for lack of permission, which a plain pgjdbc connection does not check.
        }
    }
}
