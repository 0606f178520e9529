package dev.pglane.local.watch;

import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.JMException;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A task's plugin metrics, named and shaped as Connect's JMX reporter publishes them: read-only attributes, read from
 * {@code values} at each reading (a concurrent map lets a test change them while a reader polls).
 */
public record PluginMetricsBean(Map<String, Object> values) implements DynamicMBean {

    /** Registers {@code values} as the metrics of task {@code task} of {@code connector}; returns the name. */
    public static ObjectName register(MBeanServer server, String connector, int task, Map<String, Object> values)
            throws JMException {
        ObjectName name = new ObjectName("kafka.connect:type=plugins,connector=" + connector + ",task=" + task);
        server.registerMBean(new PluginMetricsBean(values), name);
        return name;
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        if (!values.containsKey(attribute)) {
            throw new AttributeNotFoundException(attribute);
        }
        return values.get(attribute);
    }

    @Override
    public void setAttribute(Attribute attribute) {
        throw new UnsupportedOperationException();
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        throw new UnsupportedOperationException();
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Object invoke(String action, Object[] params, String[] signature) {
        throw new UnsupportedOperationException();
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return new MBeanInfo(PluginMetricsBean.class.getName(), "metrics", null, null, null, null);
    }
}
