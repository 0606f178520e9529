package dev.pglane.local.fault;

import dev.pglane.local.stack.ConnectRestClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restarts an operator makes over Connect's REST API while a connector works. Each returns once Connect has
 * accepted the request; Connect stops and starts the tasks in the background.
 */
public final class ConnectFaults {
    private static final Logger log = LoggerFactory.getLogger(ConnectFaults.class);

    private ConnectFaults() {}

    /** {@code POST /connectors/{connector}/tasks/0/restart}: the task stops and starts from its committed offsets. */
    public static void restartTask(ConnectRestClient rest, String connector) {
        rest.restartTask(connector, 0);
        log.info("task 0 of {} restarted over REST", connector);
    }

    /** {@code POST /connectors/{connector}/restart?includeTasks=true}: the connector and every task restart. */
    public static void restartConnectorAndTasks(ConnectRestClient rest, String connector) {
        rest.restartConnectorAndTasks(connector);
        log.info("{} restarted with its tasks over REST", connector);
    }
}
