package dev.pglane.source.reader;

import dev.pglane.source.PgSourceConfig;
import dev.pglane.source.capture.CapturedTables;
import dev.pglane.source.capture.NewTableWatch;
import dev.pglane.source.capture.TableCapture;
import dev.pglane.source.emit.FailureSlot;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

/**
 * The helpers a replication session runs beside its reader, each on its own schedule: the watch for tables that join
 * the publication, and the restart points that keep the slot's restart LSN moving. The session closes them with
 * itself.
 */
final class SessionWatches {
    private SessionWatches() {}

    /**
     * Starts the watches the config asks for.
     *
     * @param capture the session's table capture, {@code null} when new tables are not tracked
     */
    static List<AutoCloseable> start(
            PgSourceConfig config, String connectorName, TableCapture capture, Connection sql, FailureSlot failures) {
        List<AutoCloseable> watches = new ArrayList<>();
        if (capture != null) {
            watches.add(NewTableWatch.start(
                    new NewTableWatch.Settings(
                            connectorName,
                            config.topicPrefix(),
                            config.publicationName(),
                            config.signalTable(),
                            config.database()::connect),
                    CapturedTables.parse(capture.text()),
                    failures));
        }
        RestartPoints restartPoints = RestartPoints.start(
                connectorName, config.slotRestartIntervalBytes(), sql, config.database()::connect, failures);
        if (restartPoints != null) {
            watches.add(restartPoints);
        }
        return watches;
    }
}
