package dev.pglane.local.watch;

import dev.pglane.wire.Lsn;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import javax.management.AttributeNotFoundException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * Reads a {@link PipelineReading} from the task metrics the two connectors register with Connect
 * ({@code kafka.connect:type=plugins,connector=...,task=...}), as any JMX console would: from the worker's own JVM
 * (the demo) or from another process attached to it ({@code ./pglane-local watch}).
 */
public final class ConnectorMetricsReader {
    private static final String PLUGIN_METRICS = "kafka.connect:type=plugins,connector=%s,*";

    private final MBeanServerConnection server;
    private final String sourceConnector;
    private final String sinkConnector;
    private final int applyWorkers;

    /** @param applyWorkers the sink's {@code apply.workers}, shown beside the busy ones; 0 when unknown */
    public ConnectorMetricsReader(
            MBeanServerConnection server, String sourceConnector, String sinkConnector, int applyWorkers) {
        this.server = server;
        this.sourceConnector = sourceConnector;
        this.sinkConnector = sinkConnector;
        this.applyWorkers = applyWorkers;
    }

    /**
     * The pipeline now; empty until both connectors have a task whose metrics are published (they start some
     * seconds after the connectors are created, and again after each task restart).
     */
    public Optional<PipelineReading> read() throws IOException {
        TaskSums source = sums(sourceConnector);
        TaskSums sink = sums(sinkConnector);
        if (source.tasks == 0 || sink.tasks == 0) {
            return Optional.empty();
        }
        double sourceTx = source.sum("transactions-rate");
        return Optional.of(new PipelineReading(
                // the server's position comes with its keepalives, which a busy walsender sends seldom
                Lsn.valueOf(Math.max(source.max("server-wal-lsn"), source.max("received-lsn"))),
                Lsn.valueOf(sink.max("applied-lsn")),
                sink.max("lag-ms"),
                sourceTx,
                // the source hands Connect one commit marker per transaction beside its row changes
                Math.max(0.0, source.sum("records-rate") - sourceTx),
                sink.sum("transactions-rate"),
                sink.sum("rows-rate"),
                (long) sink.sum("busy-workers"),
                applyWorkers,
                (long) sink.sum("buffered-transactions")));
    }

    /** True once the sink has committed the last chunk of the source's snapshot ({@code snapshot-complete}). */
    public boolean sinkSnapshotComplete() throws IOException {
        TaskSums sink = sums(sinkConnector);
        return sink.tasks > 0 && sink.max("snapshot-complete") > 0;
    }

    private TaskSums sums(String connector) throws IOException {
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName(String.format(PLUGIN_METRICS, connector)), null);
            return new TaskSums(names);
        } catch (JMException e) {
            throw new IllegalStateException("cannot query the metrics of connector " + connector, e);
        }
    }

    /** The task MBeans of one connector, and their attributes summed or maximised over tasks. */
    private final class TaskSums {
        private final Set<ObjectName> names;
        private final int tasks;

        TaskSums(Set<ObjectName> names) {
            this.names = names;
            this.tasks = names.size();
        }

        double sum(String metric) throws IOException {
            double sum = 0;
            for (ObjectName name : names) {
                double value = value(name, metric).doubleValue();
                sum += Double.isNaN(value) ? 0.0 : value;
            }
            return sum;
        }

        /** As a long: LSNs use all 64 bits, more than a double keeps. */
        long max(String metric) throws IOException {
            long max = 0;
            for (ObjectName name : names) {
                max = Math.max(max, value(name, metric).longValue());
            }
            return max;
        }

        /** A task that stopped between the query and this read counts as zero until the next look. */
        private Number value(ObjectName name, String metric) throws IOException {
            try {
                return server.getAttribute(name, metric) instanceof Number number ? number : 0L;
            } catch (InstanceNotFoundException | AttributeNotFoundException e) {
                return 0L;
            } catch (JMException e) {
                throw new IllegalStateException("cannot read " + metric + " of " + name, e);
            }
        }
    }
}
