package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.it.fault.TcpProxy;
import dev.pglane.it.stack.PostgresNode;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Faults on the source's side, and of the broker between the two connectors, while the pipeline carries a steady
 * load: the source task restarted in the middle of a large transaction, the source server restarted, the network
 * between the source connector and its server cut, the Kafka broker restarted. The connectors recover on their own;
 * each story ends with the target equal to the source, nothing applied twice, and the sink's progress at the
 * source's last END.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FaultSourceIT {
    private static final Duration CUT = Duration.ofSeconds(4);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @Test
    @DisplayName("the source task restarted over REST in the middle of a large transaction, under load")
    void sourceTaskRestart() throws Exception {
        try (FaultStory story = FaultStory.start(worker, servers, "source_restart", Map.of(), Map.of())) {
            FaultStory.Moment fault = story.midLargeTransaction();

            story.run().source().restartTask();

            story.assertRecoveredFrom(fault);
        }
    }

    @Test
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

            proxy.cut();
            Waits.until("the source tried to reconnect while the network was cut", Duration.ofSeconds(60), () -> {
                story.assertNotFailed();
                return proxy.refusedConnections() > 0;
            });
            story.lastFor(CUT);
            proxy.heal();

            story.assertRecoveredFrom(fault);
        }
    }

    @Test
    @DisplayName("the Kafka broker restarted under load: both connectors carry on")
    void brokerRestart() throws Exception {
        try (FaultStory story = FaultStory.start(worker, servers, "broker_bounce", Map.of(), Map.of())) {
            FaultStory.Moment fault = story.underLoad();

            worker.kafka().restart();

            story.assertRecoveredFrom(fault);
        }
    }
}
