package dev.pglane.local.pipeline;

import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.Endpoints;
import java.util.Map;

/**
 * One pglane pipeline, source server → source connector → Kafka → sink connector → target server, described by what
 * an observer needs to tell whether the sink has caught up with the source.
 *
 * @param sourceJdbcUrl and {@code targetJdbcUrl}: URLs that carry their credentials
 * @param slot the source connector's replication slot ({@code slot.name})
 * @param topicPrefix the source connector's {@code topic.prefix}; its markers are on {@code <prefix>.transactions}
 * @param sinkName the sink connector's name, the {@code sink_name} of its progress row
 * @param progressTable the sink's {@code progress.table} (the sink must use {@code progress.store=table})
 * @param format how the source writes its records
 */
public record Pipeline(
        String sourceJdbcUrl,
        String targetJdbcUrl,
        String bootstrapServers,
        String slot,
        String topicPrefix,
        String sinkName,
        String progressTable,
        TopicFormat format) {
    // the connectors' defaults (docs/source-config.md, docs/sink-config.md), for keys a config leaves out
    private static final String DEFAULT_SLOT = "pglane";
    private static final String DEFAULT_PROGRESS_TABLE = "public.pglane_progress";

    /**
     * The pipeline of a running stack, from the configs of its two connectors as Connect holds them.
     *
     * @throws IllegalStateException when the stack has no connectors, or the sink keeps its progress elsewhere
     *     than in a table
     */
    public static Pipeline ofStack(Endpoints endpoints, ConnectRestClient rest) {
        if (endpoints.sourceConnector() == null || endpoints.sinkConnector() == null) {
            throw new IllegalStateException(
                    "the stack has no connectors (it was started with --no-connectors and has not one pglane source"
                            + " and one sink since)");
        }
        Map<String, String> source = rest.connectorConfig(endpoints.sourceConnector());
        Map<String, String> sink = rest.connectorConfig(endpoints.sinkConnector());
        if (!sink.getOrDefault("progress.store", "table").equals("table")) {
            throw new IllegalStateException("the sink " + endpoints.sinkConnector() + " keeps its progress in "
                    + sink.get("progress.store") + "; waiting for it needs progress.store=table");
        }
        return new Pipeline(
                endpoints.sourceJdbcUrl(),
                endpoints.targetJdbcUrl(),
                endpoints.bootstrapServers(),
                source.getOrDefault("slot.name", DEFAULT_SLOT),
                source.get("topic.prefix"),
                endpoints.sinkConnector(),
                sink.getOrDefault("progress.table", DEFAULT_PROGRESS_TABLE),
                TopicFormat.of(source));
    }
}
