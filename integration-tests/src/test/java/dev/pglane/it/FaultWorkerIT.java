package dev.pglane.it;

import dev.pglane.local.fault.ConnectFaults;
import dev.pglane.local.fault.ConnectWorkerProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Connect worker itself fails, under steady load: both connectors and their tasks restarted over REST in the
 * middle of a large transaction, and the worker's process killed (SIGKILL) and started again, as after a crash, in the
 * middle of the snapshot of a table's existing rows, which then goes on from its stored progress. (A kill in the middle
 * of a large transaction, with another worker of the group taking the tasks over, is {@link ConnectClusterIT}'s.)
 * The worker runs in a JVM of its own; a new process joins the same group and takes the connectors back from their
 * stored configs and offsets. Each story ends with the target equal to the source, nothing applied twice, and the
 * sink's progress at the source's last END.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FaultWorkerIT {
    private static final Duration BACK = Duration.ofSeconds(90);

    @RegisterExtension
    static final SharedWorker worker = SharedWorker.inOwnProcess();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @Test
    @DisplayName("both connectors restarted with their tasks over REST in the middle of a large transaction")
    void connectorsRestarted() throws Exception {
        try (FaultStory story = FaultStory.start(worker, servers, "connectors_restart", Map.of(), Map.of())) {
            FaultStory.Moment fault = story.midLargeTransaction();

            for (String connector : connectors(story)) {
                ConnectFaults.restartConnectorAndTasks(worker.rest(), connector);
            }

            awaitBothRunning(story);
            story.assertRecoveredFrom(fault);
        }
    }

    @Test
    @DisplayName("the worker process killed (SIGKILL) in the middle of the snapshot of existing rows, under load")
    void workerKilledMidSnapshot() throws Exception {
        int rows = 120_000;
        try (FaultStory story = FaultStory.startOverExistingRows(worker, servers, "worker_kill_snap", rows)) {
            FaultStory.Moment fault = story.midSnapshot(rows);
            ConnectWorkerProcess process = worker.workerProcess();

            process.kill();
            process.start();

            awaitBothRunning(story);
            story.assertRecoveredFrom(fault);
        }
    }

    private static List<String> connectors(FaultStory story) {
        return List.of(story.run().source().topicPrefix(), story.run().sinkName());
    }

    /** Connect brings both back on its own: the restarted ones, or the killed worker's from the group's configs. */
    private static void awaitBothRunning(FaultStory story) {
        for (String connector : connectors(story)) {
            worker.rest().awaitConnectorRunning(connector, BACK);
        }
    }
}
