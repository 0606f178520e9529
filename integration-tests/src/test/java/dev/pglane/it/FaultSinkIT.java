package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.it.fault.TcpProxy;
import dev.pglane.it.stack.PostgresNode;
import dev.pglane.it.stack.PostgresVersion;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
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
    private static final PostgresVersion VERSION = PostgresVersion.fromProperty();
    private static final Duration LOAD = Duration.ofSeconds(6);
    /** Long enough for the sink to fail its connections and retry more than once. */
    private static final Duration DOWNTIME = Duration.ofSeconds(5);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @BeforeAll
    static void streamLargeTransactions() throws SQLException {
        FaultStory.streamLargeTransactions(servers.of(VERSION));
    }

    @Test
    @DisplayName("the sink task restarted over REST in the middle of a large transaction, under load")
    void sinkTaskRestart() throws Exception {
        try (FaultStory story = start("sink_restart", Map.of())) {
            story.openLargeTransaction();
            FaultLoad load = story.startLoad(LOAD);
            story.awaitApplying();
            FaultStory.Moment fault = story.moment();
            story.assertLargeTransactionNotApplied();
            assertTrue(load.isRunning(), "the restart came under load");

            story.run().restartSinkTask();

            story.commitLargeTransaction();
            load.await();
            story.assertRecovered(fault);
        }
    }

    @Test
    @DisplayName("the target server stopped for a while under load: the sink retries, then catches up")
    void targetDown() throws Exception {
        PostgresNode target = servers.targetOf(VERSION);
        try (FaultStory story = start("target_down", Map.of())) {
            FaultLoad load = story.startLoad(LOAD);
            story.awaitApplying();
            FaultStory.Moment fault = story.moment();

            target.stop();
            try {
                story.lastFor(DOWNTIME);
            } finally {
                target.start();
            }

            load.await();
            story.assertRecovered(fault);
        }
    }

    @Test
    @DisplayName("the network between the sink and its target cut for a while under load, then healed")
    void networkCutToTarget() throws Exception {
        PostgresNode target = servers.targetOf(VERSION);
        try (TcpProxy proxy = TcpProxy.start(target.host(), target.port());
                FaultStory story = start("target_cut", Map.of("database.port", Integer.toString(proxy.port())))) {
            FaultLoad load = story.startLoad(LOAD);
            story.awaitApplying();
            FaultStory.Moment fault = story.moment();
            assertTrue(proxy.liveConnections() > 0, "the sink's sessions go through the proxy");

            proxy.cut();
            Waits.until("the sink tried to reconnect while the network was cut", Duration.ofSeconds(60), () -> {
                story.assertNotFailed();
                return proxy.refusedConnections() > 0;
            });
            story.lastFor(DOWNTIME);
            proxy.heal();

            load.await();
            story.assertRecovered(fault);
        }
    }

    private static FaultStory start(String name, Map<String, String> sinkChanges) throws SQLException {
        return FaultStory.start(
                worker,
                servers.of(VERSION),
                servers.targetOf(VERSION),
                name + "_pg" + VERSION.major(),
                Map.of(),
                sinkChanges);
    }
}
