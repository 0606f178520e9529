package dev.pglane.local.bench.snapshot;

import dev.pglane.local.bench.ConnectorRun;
import dev.pglane.local.bench.SinkConnectorRun;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.ConnectRestException;
import dev.pglane.local.stack.ConnectorConfigs;
import dev.pglane.local.stack.ConnectorStatus;
import dev.pglane.local.stack.PostgresNode;
import java.util.Map;

/**
 * pglane's two connectors as the snapshot stage runs them: the example configs (the suite's settings applied on top),
 * the source on the stage's database and publication with a snapshot mode and thread count, the sink reading that
 * source's topics into a target database; and their removal, slot and topics included.
 */
public final class SnapshotConnectors {
    private final PostgresNode source;
    private final ConnectRestClient rest;
    private final String bootstrapServers;
    private final Map<String, String> sourceSettings;
    private final ConnectorRun sourceRun;
    private final PostgresNode target;
    private final Map<String, String> sinkSettings;

    /** @param sourceSettings and {@code sinkSettings}: the suite's changes to the example configs */
    public SnapshotConnectors(
            PostgresNode source,
            PostgresNode target,
            ConnectRestClient rest,
            String bootstrapServers,
            Map<String, String> sourceSettings,
            Map<String, String> sinkSettings) {
        this.source = source;
        this.target = target;
        this.rest = rest;
        this.bootstrapServers = bootstrapServers;
        this.sourceSettings = sourceSettings;
        this.sinkSettings = sinkSettings;
        this.sourceRun = new ConnectorRun(source, rest, bootstrapServers, sourceSettings);
    }

    PostgresNode source() {
        return source;
    }

    PostgresNode target() {
        return target;
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    ConnectRestClient rest() {
        return rest;
    }

    /**
     * The source connector named {@code name} (also its topic prefix) on {@code slot}, which it creates.
     *
     * @param mode {@code initial_only} (snapshot, then stop streaming) or {@code initial} (snapshot while streaming)
     */
    Map<String, String> source(String name, String slot, String mode, int threads) {
        Map<String, String> config =
                ConnectorConfigs.forSource(source, bootstrapServers).load(ConnectorConfigs.SOURCE_JSON);
        config.put("name", name);
        config.put("database.name", SnapshotData.DATABASE);
        config.put("slot.name", slot);
        config.put("publication.name", SnapshotData.PUBLICATION);
        config.put("topic.prefix", name);
        config.putAll(sourceSettings);
        // what the stage measures: set after the suite's settings, which must not change it
        config.put("snapshot.mode", mode);
        config.put("snapshot.threads", Integer.toString(threads));
        return config;
    }

    /** pglane's sink reading the topics of the source connector {@code sourceName}. */
    SinkConnectorRun sink(String sourceName) {
        return new SinkConnectorRun(source, target, rest, bootstrapServers, sourceName, sinkSettings);
    }

    /** Throws with Connect's account when {@code name} or its task has failed; a connector not yet known passes. */
    void checkRunning(String name) {
        ConnectorStatus status;
        try {
            status = rest.status(name);
        } catch (ConnectRestException e) {
            if (e.status() == 404) {
                return;
            }
            throw e;
        }
        if (status.hasFailed()) {
            throw new IllegalStateException("connector " + name + " failed: " + status.describe());
        }
    }

    /** Deletes the source connector, waits for its slot's release, drops the slot and deletes its topics. */
    void removeSource(String name, String slot, SnapshotData data) throws Exception {
        try {
            sourceRun.remove(name, slot);
        } finally {
            data.dropSlot(slot);
            sourceRun.deleteTopics(name);
        }
    }
}
