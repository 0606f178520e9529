package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.fault.TcpProxy;
import dev.pglane.local.stack.PostgresNode;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Faults along the pipeline while it carries a steady load, on both sides of the broker and of the broker itself:
 * either connector's task restarted in the middle of a large transaction, the network between either connector and
 * its server cut for a while, the target server stopped for a while, the source server restarted, the Kafka broker
 * restarted. The connectors recover on their own; each story ends with the target equal to the source, nothing
 * applied twice, and the sink's progress at the source's last END. The stories share one broker, worker and pair of
 * servers (each has its own schema, connectors and topics); the broker restart comes last, so a worker that did not
 * fully recover from it cannot make another story fail.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultPipelineIT {
    /** Long enough for a connector to fail its connections and retry more than once. */
    private static final Duration DOWNTIME = Duration.ofSeconds(4);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @Test
    @Order(1)
    @DisplayName("the source task restarted over REST in the middle of a large transaction, under load")
    void sourceTaskRestart() throws Exception {
        try (FaultStory story = FaultStory.start(worker, servers, "source_restart", Map.of(), Map.of())) {
            FaultStory.Moment fault = story.midLargeTransaction();

            story.run().source().restartTask();

            story.assertRecoveredFrom(fault);
        }
    }

    @Test
    @Order(2)
    @DisplayName("the sink task restarted over REST in the middle of a large transaction, under load")
    void sinkTaskRestart() throws Exception {
        try (FaultStory story = FaultStory.start(worker, servers, "sink_restart", Map.of(), Map.of())) {
            FaultStory.Moment fault = story.midLargeTransaction();

            story.run().restartSinkTask();

            story.assertRecoveredFrom(fault);
        }
    }

    @Test
    @Order(3)
    @DisplayName("the network between the source connector and its server cut for a while under load, then healed")
    void networkCutToSource() throws Exception {
        PostgresNode source = servers.of(FaultStory.VERSION);
        try (TcpProxy proxy = TcpProxy.start(source.host(), source.port());
                FaultStory story = FaultStory.start(
                        worker,
                        servers,
                        "source_cut",
                        Map.of("database.port", Integer.toString(proxy.port())),
                        Map.of())) {
            FaultStory.Moment fault = story.underLoad();
            assertTrue(proxy.liveConnections() > 0, "the source's replication connection goes through the proxy");

            cutFor(proxy, story, "the source");

            story.assertRecoveredFrom(fault);
        }
    }

    @Test
    @Order(4)
    @DisplayName("the network between the sink and its target cut for a while under load, then healed")
    void networkCutToTarget() throws Exception {
        PostgresNode target = servers.targetOf(FaultStory.VERSION);
        try (TcpProxy proxy = TcpProxy.start(target.host(), target.port());
                FaultStory story = FaultStory.start(
                        worker,
                        servers,
                        "target_cut",
                        Map.of(),
                        Map.of("database.port", Integer.toString(proxy.port())))) {
            FaultStory.Moment fault = story.underLoad();
            assertTrue(proxy.liveConnections() > 0, "the sink's sessions go through the proxy");

            cutFor(proxy, story, "the sink");

            story.assertRecoveredFrom(fault);
        }
    }

    /** Cuts the proxy, waits until the connector behind it tried to reconnect, lets the cut last, heals it. */
    private static void cutFor(TcpProxy proxy, FaultStory story, String connector) {
        proxy.cut();
        Waits.until(connector + " tried to reconnect while the network was cut", Duration.ofSeconds(60), () -> {
            story.assertNotFailed();
            return proxy.refusedConnections() > 0;
        });
        story.lastFor(DOWNTIME);
        proxy.heal();
    }

    @Test
    @Order(5)
    @DisplayName("the target server stopped for a while under load: the sink retries, then catches up")
    void targetDown() throws Exception {
        PostgresNode target = servers.targetOf(FaultStory.VERSION);
        try (FaultStory story = FaultStory.start(worker, servers, "target_down", Map.of(), Map.of())) {
            FaultStory.Moment fault = story.underLoad();

            target.stop();
            try {
                story.lastFor(DOWNTIME);
            } finally {
                target.start();
            }

            story.assertRecoveredFrom(fault);
        }
    }

    @Test
    @Order(6)
    @DisplayName("the source server restarted under load: the source connector reconnects and resumes")
    void sourceServerRestart() throws Exception {
        PostgresNode source = servers.of(FaultStory.VERSION);
        try (FaultStory story = FaultStory.start(worker, servers, "source_bounce", Map.of(), Map.of())) {
            FaultStory.Moment fault = story.underLoad();

            source.restart();

            story.assertRecoveredFromSourceFault(fault);
        }
    }

    @Test
    @Order(7)
    @DisplayName("the Kafka broker restarted under load: both connectors carry on")
    void brokerRestart() throws Exception {
        try (FaultStory story = FaultStory.start(worker, servers, "broker_bounce", Map.of(), Map.of())) {
            FaultStory.Moment fault = story.underLoad();

            worker.kafka().restart();

            story.assertRecoveredFrom(fault);
        }
    }
}
