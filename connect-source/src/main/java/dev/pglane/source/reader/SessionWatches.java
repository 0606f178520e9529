package dev.pglane.source.reader;

import dev.pglane.source.ColumnSettings;
import dev.pglane.source.PgSourceConfig;
import dev.pglane.source.capture.CapturedTables;
import dev.pglane.source.capture.IncludedTablesWatch;
import dev.pglane.source.capture.NewTableWatch;
import dev.pglane.source.capture.TableCapture;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.housekeeping.HeartbeatAction;
import dev.pglane.source.housekeeping.SlotRetentionWatch;
import dev.pglane.source.seal.MessageSeal;
import dev.pglane.source.sequences.SequenceWatch;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The helpers a replication session runs beside its reader, each on its own schedule and connection: the watch for
 * tables that join the publication, the watch that adds tables the lists select to it, the restart points that keep the slot's restart LSN moving, the heartbeat action
 * query, the sequence values and the watch of the WAL the slot retains. The session closes them with itself.
 */
final class SessionWatches implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SessionWatches.class);

    private final List<AutoCloseable> all;
    private final SlotRetentionWatch slotRetention;

    private SessionWatches(List<AutoCloseable> all, SlotRetentionWatch slotRetention) {
        this.all = List.copyOf(all);
        this.slotRetention = slotRetention;
    }

    /**
     * Starts the watches the config asks for.
     *
     * @param capture the session's table capture, {@code null} when new tables are not tracked
     * @param seal the connector's seal, for the messages the watches write
     */
    static SessionWatches start(
            PgSourceConfig config,
            String connectorName,
            TableCapture capture,
            MessageSeal seal,
            Connection sql,
            FailureSlot failures) {
        List<AutoCloseable> watches = new ArrayList<>();
        if (capture != null) {
            watches.add(NewTableWatch.start(
                    new NewTableWatch.Settings(
                            connectorName,
                            seal,
                            config.publicationName(),
                            config.signalTable(),
                            config.database()::connect),
                    CapturedTables.parse(capture.text()),
                    failures));
        }
        if (!config.tableFilter().capturesAll()) {
            watches.add(IncludedTablesWatch.start(
                    connectorName,
                    config.publicationName(),
                    config.tableFilter(),
                    ColumnSettings.publishedColumns(config),
                    config.database()::connect,
                    failures));
        }
        RestartPoints restartPoints = RestartPoints.start(
                connectorName, config.slotRestartIntervalBytes(), sql, config.database()::connect, failures);
        if (restartPoints != null) {
            watches.add(restartPoints);
        }
        config.heartbeatActionQuery()
                .ifPresent(query -> watches.add(HeartbeatAction.start(
                        connectorName,
                        query,
                        config.heartbeatInterval().orElseThrow(),
                        config.database()::connect,
                        failures)));
        config.sequencesInterval()
                .ifPresent(interval -> watches.add(SequenceWatch.start(
                        connectorName,
                        config.publicationName(),
                        interval,
                        config.database()::connect,
                        seal,
                        failures)));
        SlotRetentionWatch retention = SlotRetentionWatch.start(
                connectorName,
                config.slotName(),
                config.slotRetainedWalWarnBytes(),
                config.database()::connect,
                failures);
        watches.add(retention);
        return new SessionWatches(watches, retention);
    }

    SlotRetentionWatch slotRetention() {
        return slotRetention;
    }

    @Override
    public void close() {
        for (AutoCloseable watch : all) {
            try {
                watch.close();
            } catch (Exception e) {
                log.debug("Closing {} failed", watch, e);
            }
        }
    }
}
