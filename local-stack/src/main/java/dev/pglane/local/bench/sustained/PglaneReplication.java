package dev.pglane.local.bench.sustained;

import dev.pglane.local.bench.ConnectorRun;
import dev.pglane.local.bench.SinkConnectorRun;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.PostgresNode;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * pglane's source and sink, from config-examples/ as shipped (the format's settings over them), on a slot created
 * before they start at the source's idle state, the target database a copy of that state.
 */
final class PglaneReplication implements Replication {
    private final PostgresNode source;
    private final ConnectRestClient rest;
    private final ConnectorRun sourceRun;
    private final SinkConnectorRun sinkRun;
    private final String prefix;
    private final List<String> sinkNames;
    private final String slot;

    private PglaneReplication(
            PostgresNode source,
            ConnectRestClient rest,
            ConnectorRun sourceRun,
            SinkConnectorRun sinkRun,
            String prefix,
            String slot,
            PglaneGroups groups) {
        this.source = source;
        this.rest = rest;
        this.sourceRun = sourceRun;
        this.sinkRun = sinkRun;
        this.prefix = prefix;
        this.sinkNames = groups.whole()
                ? List.of(prefix + "_sink")
                : IntStream.range(0, groups.tables().size())
                        .mapToObj(g -> prefix + "_sink_g" + (g + 1))
                        .toList();
        this.slot = slot;
    }

    /**
     * @param sourceSettings and {@code sinkSettings}: the format's settings over the example configs
     * @param name names the slot, the source connector and its topics' prefix
     * @param groups one sink of whole transactions, or one sink per table group
     */
    static PglaneReplication start(
            PostgresNode source,
            PostgresNode target,
            ConnectRestClient rest,
            String bootstrapServers,
            Map<String, String> sourceSettings,
            Map<String, String> sinkSettings,
            String name,
            String database,
            PglaneGroups groups)
            throws Exception {
        PglaneReplication replication = new PglaneReplication(
                source,
                rest,
                new ConnectorRun(source, rest, bootstrapServers, sourceSettings),
                new SinkConnectorRun(source, target, rest, bootstrapServers, name, sinkSettings),
                name,
                name,
                groups);
        Slots.create(source, name);
        try {
            rest.putConnectorConfig(name, replication.sourceRun.config(name, name));
            int workers = Integer.parseInt(ConnectorConfigs.forSink(target, bootstrapServers)
                    .load(ConnectorConfigs.SINK_JSON)
                    .get("apply.workers"));
            for (int g = 0; g < replication.sinkNames.size(); g++) {
                String sink = replication.sinkNames.get(g);
                Map<String, String> config = replication.sinkRun.config(database, workers, sink);
                if (!groups.whole()) {
                    config.put("apply.scope", "consumed_topics");
                    config.put("topics.regex", groups.topicsRegex(name, g));
                }
                rest.putConnectorConfig(sink, config);
            }
        } catch (RuntimeException e) {
            replication.close();
            throw e;
        }
        return replication;
    }

    @Override
    public void checkHealthy() {
        Connectors.checkRunning(rest, prefix);
        for (String sink : sinkNames) {
            Connectors.checkRunning(rest, sink);
        }
    }

    @Override
    public void close() throws Exception {
        for (String sink : sinkNames) {
            sinkRun.remove(sink);
        }
        sourceRun.remove(prefix, slot);
        sourceRun.deleteTopics(prefix);
        Slots.drop(source, slot);
    }
}
