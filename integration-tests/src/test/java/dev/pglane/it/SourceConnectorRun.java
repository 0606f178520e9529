package dev.pglane.it;

import dev.pglane.local.kafka.CommittedTransaction;
import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.kafka.TopicReader;
import dev.pglane.local.kafka.TransactionRebuilder;
import dev.pglane.local.stack.ConnectRestException;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;

/**
 * One pglane source connector created over REST from {@code config-examples/source-json.json}, the way a user
 * would, plus a consumer reading its topics back into a {@link TransactionRebuilder}.
 *
 * <p>The connector, its slot, its publication and its topic prefix all take the run's name, so runs of one class
 * share a worker and a server without seeing each other's records. {@link #start} returns once the task streams
 * from its slot: writes made after it are captured. {@link #close} deletes the connector and drops the slot (which
 * would otherwise keep WAL) and the publication.
 */
final class SourceConnectorRun implements AutoCloseable {
    private static final Duration STARTUP = Duration.ofSeconds(60);

    private final SharedWorker worker;
    private PostgresNode source;
    private final String name;
    private final TopicReader reader;
    private Map<String, String> stoppedConfig;
    private final TransactionRebuilder rebuilder = new TransactionRebuilder();

    private final TopicFormat format;

    private SourceConnectorRun(SharedWorker worker, PostgresNode source, String name, TopicFormat format) {
        this.worker = worker;
        this.source = source;
        this.name = name;
        this.format = format;
        this.reader = TopicReader.forPrefix(worker.bootstrapServers(), name, format);
    }

    /**
     * Creates the connector and waits until its task runs and its slot is active.
     *
     * @param name lower-case letters, digits and underscores: a valid slot, publication and topic prefix
     * @param changes settings that differ from the example config
     */
    static SourceConnectorRun start(
            SharedWorker worker, PostgresNode source, String name, Map<String, String> changes) {
        Map<String, String> config =
                ConnectorConfigs.forSource(source, worker.bootstrapServers()).load(ConnectorConfigs.SOURCE_JSON);
        config.put("name", name);
        config.put("slot.name", name);
        config.put("publication.name", name);
        config.put("topic.prefix", name);
        // the source servers are shared, so a snapshot would read every earlier test's tables; SnapshotIT asks for one
        config.put("snapshot.mode", "never");
        config.putAll(changes);
        SourceConnectorRun run = new SourceConnectorRun(worker, source, name, TopicFormat.of(config));
        try {
            worker.rest().putConnectorConfig(name, config);
            worker.rest().awaitConnectorRunning(name, STARTUP);
            if ("initial_only".equals(config.get("snapshot.mode"))) {
                // it may have sent its rows and let go of the slot already
                run.awaitSlotCreated();
            } else {
                run.awaitSlotActive(true, STARTUP);
            }
        } catch (RuntimeException e) {
            run.close();
            throw new IllegalStateException("source connector " + name + " did not start", e);
        }
        return run;
    }

    PostgresNode server() {
        return source;
    }

    /**
     * Points the connector at {@code server} (a promoted standby of its server, say): its config gets the new host and
     * port over REST, Connect restarts the task with it, and this run's checks and clean-up go to {@code server}.
     */
    void moveTo(PostgresNode server) {
        Map<String, String> config = new HashMap<>(worker.rest().connectorConfig(name));
        config.put("database.host", server.host());
        config.put("database.port", Integer.toString(server.port()));
        worker.rest().putConnectorConfig(name, config);
        source = server;
        worker.rest().awaitConnectorRunning(name, STARTUP);
        awaitSlotActive(true, STARTUP);
    }

    String topicPrefix() {
        return name;
    }

    String slot() {
        return name;
    }

    /** How the connector writes its records, from its converter settings. */
    TopicFormat format() {
        return format;
    }

    TopicReader reader() {
        return reader;
    }

    TransactionRebuilder rebuilder() {
        return rebuilder;
    }

    /**
     * Reads until the rebuilder has released {@code count} transactions with changes; returns those. Transactions
     * without changes are left out: PostgreSQL 14 sends the empty commits of catalog-only work (e.g. an ANALYZE).
     */
    List<CommittedTransaction> awaitCommitted(int count, Duration timeout) {
        reader.readUntil(
                rebuilder::accept,
                () -> withChanges().size() >= count,
                timeout,
                () -> "waiting for " + count + " committed transactions of " + name + ": " + rebuilder.describe());
        return withChanges();
    }

    List<CommittedTransaction> withChanges() {
        return rebuilder.committed().stream()
                .filter(tx -> !tx.changes().isEmpty())
                .toList();
    }

    /** Restarts task 0 over REST and waits until it runs and streams from its slot again. */
    void restartTask() {
        worker.rest().restartTask(name, 0);
        worker.rest().awaitConnectorRunning(name, STARTUP);
        awaitSlotActive(true, STARTUP);
    }

    /**
     * Limits how many bytes per second the task's producer may write to the broker ({@code null} lifts the limit):
     * a broker quota on the producer's client id. A test uses it to make emitting a transaction last long enough,
     * on any machine, for something to happen in the middle of it.
     */
    void throttleProducer(Double bytesPerSecond) {
        ClientQuotaEntity producer =
                new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "connector-producer-" + name + "-0"));
        ClientQuotaAlteration limit = new ClientQuotaAlteration(
                producer, List.of(new ClientQuotaAlteration.Op("producer_byte_rate", bytesPerSecond)));
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, worker.bootstrapServers()))) {
            admin.alterClientQuotas(List.of(limit)).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not set the producer quota of " + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted setting the producer quota of " + name, e);
        }
    }

    /**
     * Deletes the connector, its offsets kept, and waits until its task has released the slot (a paused source task
     * keeps its replication connection).
     */
    void stop() {
        stoppedConfig = worker.rest().connectorConfig(name);
        deleteConnector();
        awaitSlotActive(false, STARTUP);
    }

    /** Creates the connector {@link #stop} deleted again, and waits until it streams from a slot. */
    void startAgain() {
        worker.rest().putConnectorConfig(name, stoppedConfig);
        worker.rest().awaitConnectorRunning(name, STARTUP);
        awaitSlotActive(true, STARTUP);
    }

    private void awaitSlotCreated() {
        Waits.until("slot " + name + " exists", STARTUP, () -> {
            try (Connection connection = source.open();
                    PreparedStatement query = connection.prepareStatement(
                            "SELECT count(*) FROM pg_replication_slots WHERE slot_name = ?")) {
                query.setString(1, name);
                try (ResultSet rs = query.executeQuery()) {
                    rs.next();
                    return rs.getInt(1) == 1;
                }
            }
        });
    }

    /** Waits until the slot is active, or released (inactive or absent). */
    private void awaitSlotActive(boolean active, Duration timeout) {
        Waits.until("slot " + name + " is " + (active ? "active" : "released"), timeout, () -> {
            try (Connection connection = source.open();
                    PreparedStatement query = connection.prepareStatement(
                            "SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active")) {
                query.setString(1, name);
                try (ResultSet rs = query.executeQuery()) {
                    rs.next();
                    return (rs.getInt(1) == 1) == active;
                }
            }
        });
    }

    private void deleteConnector() {
        try {
            worker.rest().deleteConnector(name);
        } catch (ConnectRestException e) {
            if (e.status() != 404) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        try {
            reader.close();
            deleteConnector();
            awaitSlotActive(false, STARTUP);
            SqlSession.execute(
                    source,
                    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '" + name
                            + "'",
                    "DROP PUBLICATION IF EXISTS " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cleaning up after source connector " + name, e);
        }
    }
}
