package dev.pglane.it;

import dev.pglane.local.kafka.TopicReader;
import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.CommittedTransactions;
import dev.pglane.local.pipeline.Pipeline;
import dev.pglane.local.pipeline.Progress;
import dev.pglane.local.pipeline.ProgressTable;
import dev.pglane.local.stack.ConnectRestException;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.verify.DatabaseComparator;
import dev.pglane.wire.Lsn;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A whole pipeline for one test: a {@link SourceConnectorRun} and a pglane sink created over REST from {@code
 * config-examples/sink-json.json}, applying the source's changes to a target server.
 *
 * <p>The run's name is the source connector's, its slot's, publication's and topic prefix, and the schema its tables
 * live in on both servers; the source captures only that schema, so runs of one class can share servers and a
 * worker. Its tables must exist on the source before {@link #start}: the publication lists them. The sink is named
 * {@code <name>_sink} and keeps its progress in the default {@code public.pglane_progress}.
 */
final class SinkConnectorRun implements AutoCloseable {
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final String PROGRESS_TABLE = "public.pglane_progress";

    private final SharedWorker worker;
    private final SourceConnectorRun source;
    private final PostgresNode target;
    private final String sinkName;
    private Pipeline pipeline;

    private SinkConnectorRun(SharedWorker worker, SourceConnectorRun source, PostgresNode target, String sinkName) {
        this.worker = worker;
        this.source = source;
        this.target = target;
        this.sinkName = sinkName;
        this.pipeline = new Pipeline(
                source.server().jdbcUrl(),
                target.jdbcUrl(),
                worker.bootstrapServers(),
                source.slot(),
                source.topicPrefix(),
                sinkName,
                PROGRESS_TABLE,
                source.format());
    }

    /**
     * Starts the source connector, then the sink, and waits until both run.
     *
     * @param name lower-case letters, digits and underscores; the schema of the run's tables
     * @param sinkChanges settings that differ from the example sink config, on top of the run's own: apply.workers,
     *     conflict.policy=error and auto.create=true
     */
    static SinkConnectorRun start(
            SharedWorker worker,
            PostgresNode sourceServer,
            PostgresNode target,
            String name,
            Map<String, String> sinkChanges) {
        return start(worker, sourceServer, target, name, Map.of(), sinkChanges);
    }

    /**
     * Like {@link #start(SharedWorker, PostgresNode, PostgresNode, String, Map)}, with settings that differ from the
     * example source config too (e.g. {@code streaming.mode}, {@code database.port} of a proxy, or a {@code
     * table.include.list} other than the run's schema).
     */
    static SinkConnectorRun start(
            SharedWorker worker,
            PostgresNode sourceServer,
            PostgresNode target,
            String name,
            Map<String, String> sourceChanges,
            Map<String, String> sinkChanges) {
        Map<String, String> sourceConfig = new HashMap<>(sourceChanges);
        sourceConfig.putIfAbsent("table.include.list", name + "\\..*");
        SourceConnectorRun source = SourceConnectorRun.start(worker, sourceServer, name, sourceConfig);
        SinkConnectorRun run = new SinkConnectorRun(worker, source, target, name + "_sink");
        Map<String, String> config =
                ConnectorConfigs.forSink(target, worker.bootstrapServers()).load(ConnectorConfigs.SINK_JSON);
        config.put("name", run.sinkName);
        config.put("source.topic.prefix", source.topicPrefix());
        // the change topics and, what the sink cannot do without, the marker topic <prefix>.transactions
        config.put("topics.regex", source.topicPrefix() + "\\..*");
        config.put("conflict.policy", "error");
        config.put("auto.create", "true");
        config.put("progress.table", PROGRESS_TABLE);
        config.putAll(sinkChanges);
        try {
            worker.rest().putConnectorConfig(run.sinkName, config);
            worker.rest().awaitConnectorRunning(run.sinkName, STARTUP);
        } catch (RuntimeException e) {
            run.close();
            throw new IllegalStateException("sink connector " + run.sinkName + " did not start", e);
        }
        return run;
    }

    String sinkName() {
        return sinkName;
    }

    SourceConnectorRun source() {
        return source;
    }

    /** Moves the source connector to {@code server} ({@link SourceConnectorRun#moveTo}); the checks follow it. */
    void sourceMovedTo(PostgresNode server) {
        source.moveTo(server);
        pipeline = new Pipeline(
                server.jdbcUrl(),
                pipeline.targetJdbcUrl(),
                pipeline.bootstrapServers(),
                pipeline.slot(),
                pipeline.topicPrefix(),
                pipeline.sinkName(),
                pipeline.progressTable(),
                pipeline.format());
    }

    Pipeline pipeline() {
        return pipeline;
    }

    /** Waits until the sink has applied what the source committed so far ({@link CatchUp}). */
    CatchUp.Result awaitCatchUp(Duration timeout) throws SQLException {
        return CatchUp.unlessFailed(pipeline, worker.rest(), source.topicPrefix())
                .await(timeout);
    }

    /** The sink's progress row now. */
    Progress progress() throws SQLException {
        try (ProgressTable table = ProgressTable.open(target.jdbcUrl(), PROGRESS_TABLE, sinkName)) {
            return table.read();
        }
    }

    /** The progress row's {@code owner_epoch}: each task instance that starts raises it ({@code ProgressTable}). */
    long progressOwnerEpoch() throws SQLException {
        try (SqlSession session = SqlSession.open(target)) {
            return ((Number) session.queryValue(
                            "SELECT owner_epoch FROM " + PROGRESS_TABLE + " WHERE sink_name = ?", sinkName))
                    .longValue();
        }
    }

    /**
     * The source's END markers up to {@code limit}, read from the marker topic as far as it goes now; call it once
     * the sink has caught up, so that every END up to {@code limit} is there.
     */
    CommittedTransactions committedUpTo(Lsn limit) {
        CommittedTransactions committed = new CommittedTransactions(limit);
        try (TopicReader markers =
                TopicReader.markersOf(worker.bootstrapServers(), source.topicPrefix(), source.format())) {
            markers.readToEnd(committed::accept, STARTUP);
        }
        return committed;
    }

    /** Every table of the run's schema, source against target (the only publication is the run's). */
    ComparisonReport compare() throws SQLException {
        return new DatabaseComparator(pipeline.sourceJdbcUrl(), pipeline.targetJdbcUrl()).compare();
    }

    void pauseSink() {
        worker.rest().pause(sinkName);
    }

    void resumeSink() {
        worker.rest().resume(sinkName);
        worker.rest().awaitConnectorRunning(sinkName, STARTUP);
    }

    /** Restarts the sink's task over REST and waits until it runs again. */
    void restartSinkTask() {
        worker.rest().restartTask(sinkName, 0);
        worker.rest().awaitConnectorRunning(sinkName, STARTUP);
    }

    /** Deletes the sink, then the source connector with its slot and publication. */
    @Override
    public void close() {
        try {
            worker.rest().deleteConnector(sinkName);
        } catch (ConnectRestException e) {
            if (e.status() != 404) {
                throw e;
            }
        } finally {
            source.close();
        }
    }
}
