package dev.pglane.local.stack;

import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.AttributeNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A connector's task metrics as the shared worker publishes them over JMX in this JVM: the plugin metrics a task
 * registers ({@code kafka.connect:type=plugins,connector=...,task=...}), read as an operator's JMX console would.
 */
public final class TaskMetrics {
    private TaskMetrics() {}

    /** The value of {@code metric} in the MBean of {@code connector} that has it. */
    public static double value(String connector, String metric) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names;
        try {
            names = server.queryNames(new ObjectName("kafka.connect:*"), null);
            for (ObjectName name : names) {
                if (connector.equals(name.getKeyProperty("connector"))) {
                    try {
                        return ((Number) server.getAttribute(name, metric)).doubleValue();
                    } catch (AttributeNotFoundException e) {
                        // another MBean of the connector (its status, its task's Connect metrics)
                    }
                }
            }
        } catch (JMException e) {
            throw new IllegalStateException("cannot read " + metric + " of " + connector + " over JMX", e);
        }
        throw new IllegalStateException(
                "no MBean of connector " + connector + " has " + metric + "; kafka.connect" + " MBeans: " + names);
    }
}
