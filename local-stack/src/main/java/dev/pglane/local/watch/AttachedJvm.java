package dev.pglane.local.watch;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The MBeans of another JVM on this machine, reached through the JDK's attach mechanism: the JVM starts its local
 * management agent on request and hands back its address, so the stack needs no JMX port of its own.
 */
public final class AttachedJvm implements AutoCloseable {
    private final JMXConnector connector;

    private AttachedJvm(JMXConnector connector) {
        this.connector = connector;
    }

    /** Attaches to the JVM of process {@code pid} (same user) and connects to its MBean server. */
    public static AttachedJvm attach(long pid) throws IOException {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException e) {
            throw new IOException("cannot attach to the JVM of process " + pid + ": " + e.getMessage(), e);
        }
        try {
            String address = vm.startLocalManagementAgent();
            return new AttachedJvm(JMXConnectorFactory.connect(new JMXServiceURL(address)));
        } finally {
            vm.detach();
        }
    }

    public MBeanServerConnection mbeans() throws IOException {
        return connector.getMBeanServerConnection();
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
