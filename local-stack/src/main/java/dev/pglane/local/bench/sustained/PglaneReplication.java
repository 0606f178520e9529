package dev.pglane.local.bench.sustained;

import dev.pglane.local.bench.ConnectorRun;
import dev.pglane.local.bench.SinkConnectorRun;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.PostgresNode;
import java.util.Map;

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
    private final String sinkName;
    private final String slot;

    private PglaneReplication(
            PostgresNode source,
            ConnectRestClient rest,
            ConnectorRun sourceRun,
            SinkConnectorRun sinkRun,
            String prefix,
            String slot) {
        this.source = source;
        this.rest = rest;
        this.sourceRun = sourceRun;
        this.sinkRun = sinkRun;
        this.prefix = prefix;
        this.sinkName = prefix + "_sink";
        this.slot = slot;
    }

    /**
     * @param sourceSettings and {@code sinkSettings}: the format's settings over the example configs
     * @param name names the slot, the source connector and its topics' prefix
     */
    static PglaneReplication start(
            PostgresNode source,
            PostgresNode target,
            ConnectRestClient rest,
            String bootstrapServers,
            Map<String, String> sourceSettings,
            Map<String, String> sinkSettings,
            String name,
            String database)
            throws Exception {
        PglaneReplication replication = new PglaneReplication(
                source,
                rest,
                new ConnectorRun(source, rest, bootstrapServers, sourceSettings),
                new SinkConnectorRun(source, target, rest, bootstrapServers, name, sinkSettings),
                name,
                name);
        Slots.create(source, name);
        try {
            rest.putConnectorConfig(name, replication.sourceRun.config(name, name));
            int workers = Integer.parseInt(ConnectorConfigs.forSink(target, bootstrapServers)
                    .load(ConnectorConfigs.SINK_JSON)
                    .get("apply.workers"));
            rest.putConnectorConfig(
                    replication.sinkName, replication.sinkRun.config(database, workers, replication.sinkName));
        } catch (RuntimeException e) {
            replication.close();
            throw e;
        }
        return replication;
    }

    @Override
    public void checkHealthy() {
        Connectors.checkRunning(rest, prefix);
        Connectors.checkRunning(rest, sinkName);
    }

    @Override
    public void close() throws Exception {
        sinkRun.remove(sinkName);
        sourceRun.remove(prefix, slot);
        sourceRun.deleteTopics(prefix);
        Slots.drop(source, slot);
    }
}
