package dev.pglane.local.bench;

import dev.pglane.local.kafka.TopicBytes;
import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.kafka.TopicReader;
import dev.pglane.local.kafka.WireRecord;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.wire.marker.Marker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The pglane source connector, created over REST from {@code config-examples/source-json.json} (pglane's JSON converter, with
 * schemas), catching up on a backlog from its slot into Kafka: timed from the connector's creation until the
 * fence transaction's END is on the marker topic (only the newest markers decoded meanwhile, the rest after the clock stops). The connector is deleted after the run; its topics stay until
 * {@link #deleteTopics}, so a sink can read them.
 */
public final class ConnectorRun {
    static final String SYSTEM = "pglane source -> Kafka (JSON)";
    static final String SYSTEM_AVRO = "pglane source -> Kafka (Avro)";
    private static final Duration CATCH_UP = Duration.ofMinutes(30);

    private final PostgresNode server;
    private final ConnectRestClient rest;
    private final String bootstrapServers;

    private final Map<String, String> settings;

    /** @param settings changes to the example config */
    public ConnectorRun(
            PostgresNode server, ConnectRestClient rest, String bootstrapServers, Map<String, String> settings) {
        this.server = server;
        this.rest = rest;
        this.bootstrapServers = bootstrapServers;
        this.settings = settings;
    }

    Measurement measure(String slot, Backlog.Info backlog, String name) throws Exception {
        Map<String, String> config = config(slot, name);
        long pg = ProcCpu.postmasterPid(server.dataDirectory());
        EndCount ends = new EndCount(backlog.fenceXid());
        try (TopicReader markers = TopicReader.markersOf(bootstrapServers, name, TopicFormat.of(config))) {
            double pgCpu = ProcCpu.serverSeconds(pg);
            double jvmCpu = ProcCpu.jvmSeconds();
            ThreadCpu threads = ThreadCpu.snapshot();
            long begin = System.nanoTime();
            rest.putConnectorConfig(name, config);
            List<ConsumerRecord<byte[], byte[]>> read = markers.readUntilNewest(
                    ends::isFenceEnd,
                    EndCount::isHeartbeat,
                    CATCH_UP,
                    () -> "waiting for the END of the fence" + " transaction " + backlog.fenceXid());
            double seconds = (System.nanoTime() - begin) / 1e9;
            Map<String, Double> breakdown = ThreadCpu.snapshot().secondsSince(threads);
            jvmCpu = ProcCpu.jvmSeconds() - jvmCpu;
            pgCpu = ProcCpu.serverSeconds(pg) - pgCpu;
            // after the timed part, as a consumer would: every marker, decoded, to count what the connector wrote
            markers.decode(read, ends);
            if (!ends.fence || ends.transactions != backlog.transactions() || ends.changes != backlog.changes()) {
                throw new IllegalStateException("the connector's END markers count " + ends.transactions
                        + " transactions with " + ends.changes + " changes; the backlog has "
                        + backlog.transactions() + " with " + backlog.changes());
            }
            // after the timed part: the records as consumers receive them, for bytes per change
            long recordBytes = TopicBytes.ofChanges(bootstrapServers, name);
            return new Measurement(
                    TopicFormat.of(config).registryUrl() == null ? SYSTEM : SYSTEM_AVRO,
                    seconds,
                    backlog.transactions(),
                    backlog.changes(),
                    pgCpu,
                    jvmCpu,
                    breakdown,
                    recordBytes);
        } finally {
            remove(name, slot);
        }
    }

    /** The connector's config: the example's, on {@code slot} and the benchmark's publication, topics named as it. */
    public Map<String, String> config(String slot, String name) {
        Map<String, String> config =
                ConnectorConfigs.forSource(server, bootstrapServers).load(ConnectorConfigs.SOURCE_JSON);
        config.put("name", name);
        config.put("slot.name", slot);
        config.put("publication.name", Backlog.PUBLICATION);
        config.put("topic.prefix", name);
        // the backlog is what is measured: its tables' existing rows are not
        config.put("snapshot.mode", "never");
        config.putAll(settings);
        return config;
    }

    /** Deletes the connector and waits until its slot is released. */
    public void remove(String name, String slot) throws InterruptedException {
        SinkConnectorRun.deleteIfCreated(rest, name);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (Backlog.slotActive(server, slot)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("slot " + slot + " still active a minute after the connector's delete");
            }
            Thread.sleep(200);
        }
    }

    /** Deletes the topics that the connector named {@code name} wrote (they take GBs). */
    public void deleteTopics(String name) throws InterruptedException, ExecutionException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Set<String> topics = admin.listTopics().names().get().stream()
                    .filter(topic -> topic.startsWith(name + "."))
                    .collect(Collectors.toSet());
            admin.deleteTopics(topics).all().get();
        }
    }

    /** Counts END markers and their events until the fence transaction's END. */
    private static final class EndCount implements java.util.function.Consumer<WireRecord> {
        private final long fenceXid;
        private long transactions;
        private long changes;
        private boolean fence;

        EndCount(long fenceXid) {
            this.fenceXid = fenceXid;
        }

        @Override
        public void accept(WireRecord record) {
            if (record instanceof WireRecord.MarkerRecord marker && marker.marker() instanceof Marker.End end) {
                if (end.xid() == fenceXid) {
                    fence = true;
                } else if (end.eventCount() > 0) {
                    transactions++;
                    changes += end.eventCount();
                }
            }
        }

        boolean isFenceEnd(WireRecord record) {
            return record instanceof WireRecord.MarkerRecord marker
                    && marker.marker() instanceof Marker.End end
                    && end.xid() == fenceXid;
        }

        /** A heartbeat may follow the fence's END: the newest marker that tells is the newest other one. */
        static boolean isHeartbeat(WireRecord record) {
            return record instanceof WireRecord.MarkerRecord marker && marker.marker() instanceof Marker.Heartbeat;
        }
    }
}
