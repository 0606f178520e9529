package dev.pglane.sink;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkTaskContext;

/** What the Connect runtime gives a sink task, reduced to recording what the task asked of it. */
final class FakeSinkTaskContext implements SinkTaskContext {
    final Set<TopicPartition> assignment = new HashSet<>();
    final Set<TopicPartition> paused = new HashSet<>();
    final Map<TopicPartition, Long> rewinds = new HashMap<>();
    ErrantRecordReporter reporter;
    PluginMetrics metrics;
    long timeoutMs = -1;

    FakeSinkTaskContext(List<TopicPartition> partitions) {
        assignment.addAll(partitions);
    }

    @Override
    public Map<String, String> configs() {
        return Map.of();
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {
        rewinds.putAll(offsets);
    }

    @Override
    public void offset(TopicPartition tp, long offset) {
        rewinds.put(tp, offset);
    }

    @Override
    public void timeout(long timeoutMs) {
        this.timeoutMs = timeoutMs;
    }

    @Override
    public Set<TopicPartition> assignment() {
        return assignment;
    }

    @Override
    public void pause(TopicPartition... partitions) {
        paused.addAll(List.of(partitions));
    }

    @Override
    public void resume(TopicPartition... partitions) {
        paused.removeAll(List.of(partitions));
    }

    @Override
    public void requestCommit() {}

    @Override
    public ErrantRecordReporter errantRecordReporter() {
        return reporter;
    }

    @Override
    public PluginMetrics pluginMetrics() {
        return metrics;
    }
}
