package dev.pglane.local.bench.sustained;

import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.ConnectRestException;
import dev.pglane.local.stack.ConnectorStatus;
import java.time.Duration;

/** What every system in a Connect worker shares: telling a failed connector from a running one. */
final class Connectors {
    private static final Duration REMOVAL = Duration.ofSeconds(60);

    private Connectors() {}

    /** Deletes connector {@code name} if the worker knows it, and waits until the worker has forgotten it. */
    static void remove(ConnectRestClient rest, String name) throws InterruptedException {
        long deadline = System.nanoTime() + REMOVAL.toNanos();
        try {
            rest.deleteConnector(name);
            while (System.nanoTime() < deadline) {
                rest.status(name);
                Thread.sleep(100);
            }
        } catch (ConnectRestException e) {
            if (e.status() == 404) {
                return;
            }
            throw e;
        }
        throw new IllegalStateException(
                "the worker still knows connector " + name + " " + REMOVAL + " after its delete");
    }

    /** Throws, naming the connector and its failure, when it or a task of it has failed. */
    static void checkRunning(ConnectRestClient rest, String name) {
        ConnectorStatus status;
        try {
            status = rest.status(name);
        } catch (ConnectRestException e) {
            if (e.status() == 404) {
                return; // the worker has not registered it yet
            }
            throw e;
        }
        if (status.hasFailed()) {
            throw new IllegalStateException("connector " + name + " failed: " + status.describe());
        }
    }
}
