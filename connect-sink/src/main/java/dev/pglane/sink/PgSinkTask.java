package dev.pglane.sink;

import java.util.Collection;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * The sink task, the apply leader. The apply pipeline (assembler, scheduler, workers) is not built
 * yet, so the task fails at start with a clear message rather than consuming and dropping records.
 */
public final class PgSinkTask extends SinkTask {
    @Override
    public String version() {
        return PgSinkConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        throw new ConnectException(
                "The pglane sink apply pipeline is not part of this build yet (issue #4); only configuration"
                        + " and validation are.");
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        // Connect never calls put() after start() failed.
    }

    @Override
    public void stop() {
        // start() never succeeds, so there is nothing to release.
    }
}
