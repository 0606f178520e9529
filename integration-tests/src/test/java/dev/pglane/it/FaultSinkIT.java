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
 * Faults on the sink's side while the pipeline carries a steady load: its task restarted in the middle of a large
 * transaction, its target server down for a while, its network to the target cut. Connect and the sink recover on
 * their own; each story ends with the target equal to the source, nothing applied twice, and the sink's progress
 * at the source's last END.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FaultSinkIT {
    /** Long enough for the sink to fail its connections and retry more than once. */
    private static final Duration DOWNTIME = Duration.ofSeconds(5);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @Test
    @DisplayName("the sink task restarted over REST in the middle of a large transaction, under load")
    void sinkTaskRestart() throws Exception {
        try (FaultStory story = FaultStory.start(worker, servers, "sink_restart", Map.of(), Map.of())) {
            FaultStory.Moment fault = story.midLargeTransaction();

            story.run().restartSinkTask();

            story.assertRecoveredFrom(fault);
        }
    }

    @Test
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

            proxy.cut();
            Waits.until("the sink tried to reconnect while the network was cut", Duration.ofSeconds(60), () -> {
                story.assertNotFailed();
                return proxy.refusedConnections() > 0;
            });
            story.lastFor(DOWNTIME);
            proxy.heal();

            story.assertRecoveredFrom(fault);
        }
    }
}
