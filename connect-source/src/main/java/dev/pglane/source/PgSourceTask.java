package dev.pglane.source;

import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/**
 * The source task. The change pipeline (reader, decoder lanes, emitter) is not built yet, so the
 * task fails at start with a clear message rather than running and producing nothing.
 */
public final class PgSourceTask extends SourceTask {
    @Override
    public String version() {
        return PgSourceConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        throw new ConnectException(
                "The pglane source change pipeline is not part of this build yet (issue #3); only configuration"
                        + " and validation are.");
    }

    @Override
    public List<SourceRecord> poll() {
        return null;
    }

    @Override
    public void stop() {
        // start() never succeeds, so there is nothing to release.
    }
}
