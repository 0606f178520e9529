package dev.pglane.source;

import dev.pglane.wire.SourceOffset;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * A task context as Connect gives one: the stored offset of the task's one source partition (or none)
 * and the task's own plugin metrics.
 */
record FakeTaskContext(Map<String, String> configs, Map<String, Object> offset, PluginMetrics pluginMetrics)
        implements SourceTaskContext {
    @Override
    public OffsetStorageReader offsetStorageReader() {
        Map<String, String> partition = SourceOffset.partition(configs.get(PgSourceConfig.TOPIC_PREFIX));
        return new OffsetStorageReader() {
            @Override
            public <T> Map<String, Object> offset(Map<String, T> asked) {
                return asked.equals(partition) ? offset : null;
            }

            @Override
            public <T> Map<Map<String, T>, Map<String, Object>> offsets(Collection<Map<String, T>> partitions) {
                throw new UnsupportedOperationException("the task reads one partition");
            }
        };
    }
}
