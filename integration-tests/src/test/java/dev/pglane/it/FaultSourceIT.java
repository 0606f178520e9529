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
 * Faults on the source's side, and of the broker between the two connectors, while the pipeline carries a steady
 * load: the source task restarted in the middle of a large transaction, the source server restarted, the network
 * between the source connector and its server cut, the Kafka broker restarted. The connectors recover on their own;
 * each story ends with the target equal to the source, nothing applied twice, and the sink's progress at the
 * source's last END.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FaultSourceIT {
    private static final PostgresVersion VERSION = PostgresVersion.fromProperty();
    private static final Duration LOAD = Duration.ofSeconds(6);
    private static final Duration CUT = Duration.ofSeconds(4);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @BeforeAll
    static void streamLargeTransactions() throws SQLException {
        FaultStory.streamLargeTransactions(servers.of(VERSION));
    }

    @Test
    @DisplayName("the source task restarted over REST in the middle of a large transaction, under load")
    void sourceTaskRestart() throws Exception {
        try (FaultStory story = start("source_restart", Map.of())) {
            story.openLargeTransaction();
            FaultLoad load = story.startLoad(LOAD);
            story.awaitApplying();
            FaultStory.Moment fault = story.moment();
            story.assertLargeTransactionNotApplied();
            assertTrue(load.isRunning(), "the restart came under load");

            story.run().source().restartTask();

            story.commitLargeTransaction();
            load.await();
            story.assertRecovered(fault);
        }
    }

    @Test
    @DisplayName("the source server restarted under load: the source connector reconnects and resumes")
    void sourceServerRestart() throws Exception {
        PostgresNode source = servers.of(VERSION);
        try (FaultStory story = start("source_bounce", Map.of())) {
            FaultLoad load = story.startLoad(LOAD);
            story.awaitApplying();
            FaultStory.Moment fault = story.moment();

            source.restart();

            load.awaitCutBySource();
            story.writeAfterFault();
            story.assertRecovered(fault);
        }
    }

    @Test
    @DisplayName("the network between the source connector and its server cut for a while under load, then healed")
    void networkCutToSource() throws Exception {
        PostgresNode source = servers.of(VERSION);
        try (TcpProxy proxy = TcpProxy.start(source.host(), source.port());
                FaultStory story = start("source_cut", Map.of("database.port", Integer.toString(proxy.port())))) {
            FaultLoad load = story.startLoad(LOAD);
            story.awaitApplying();
            FaultStory.Moment fault = story.moment();
            assertTrue(proxy.liveConnections() > 0, "the source's replication connection goes through the proxy");

            proxy.cut();
            Waits.until("the source tried to reconnect while the network was cut", Duration.ofSeconds(60), () -> {
                story.assertNotFailed();
                return proxy.refusedConnections() > 0;
            });
            story.lastFor(CUT);
            proxy.heal();

            load.await();
            story.assertRecovered(fault);
        }
    }

    @Test
    @DisplayName("the Kafka broker restarted under load: both connectors carry on")
    void brokerRestart() throws Exception {
        try (FaultStory story = start("broker_bounce", Map.of())) {
            FaultLoad load = story.startLoad(LOAD);
            story.awaitApplying();
            FaultStory.Moment fault = story.moment();
            assertTrue(load.isRunning(), "the restart came under load");

            worker.kafka().restart();

            load.await();
            story.assertRecovered(fault);
        }
    }

    private static FaultStory start(String name, Map<String, String> sourceChanges) throws SQLException {
        return FaultStory.start(
                worker,
                servers.of(VERSION),
                servers.targetOf(VERSION),
                name + "_pg" + VERSION.major(),
                sourceChanges,
                Map.of());
    }
}
