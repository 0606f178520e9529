package dev.pglane.local.soak;

import dev.pglane.local.fault.ConnectFaults;
import dev.pglane.local.fault.PostgresFaults;
import dev.pglane.local.fault.TcpProxy;
import dev.pglane.local.stack.ConnectRestClient;
import dev.pglane.local.stack.LocalStack;
import dev.pglane.local.stack.PostgresNode;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The soak's stack: a {@link LocalStack} whose connectors reach their databases through a {@link TcpProxy} each, so
 * that the network between them can be cut, plus the fault actions on its parts.
 */
final class SoakStack implements AutoCloseable {
    private final LocalStack stack;
    private TcpProxy sourceProxy;
    private TcpProxy targetProxy;

    SoakStack(LocalStack.Options options) {
        this.stack = new LocalStack(options);
    }

    /** Starts the servers, the broker and the worker, and the proxies in front of both databases. */
    void start() {
        stack.start();
        sourceProxy = TcpProxy.start(stack.source().host(), stack.source().port());
        targetProxy = TcpProxy.start(stack.target().host(), stack.target().port());
    }

    /** Creates both connectors, each pointed at its database's proxy. */
    void createConnectors(Map<String, String> sinkSettings) {
        Map<String, String> sink = new HashMap<>(sinkSettings);
        sink.putAll(throughProxy(targetProxy));
        stack.createConnectors(throughProxy(sourceProxy), sink);
    }

    private static Map<String, String> throughProxy(TcpProxy proxy) {
        return Map.of("database.host", proxy.host(), "database.port", Integer.toString(proxy.port()));
    }

    LocalStack local() {
        return stack;
    }

    PostgresNode source() {
        return stack.source();
    }

    PostgresNode target() {
        return stack.target();
    }

    ConnectRestClient rest() {
        return stack.rest();
    }

    String sourceConnector() {
        return stack.endpoints().sourceConnector();
    }

    String sinkConnector() {
        return stack.endpoints().sinkConnector();
    }

    void restartSourceTask() {
        ConnectFaults.restartTask(rest(), sourceConnector());
    }

    void restartSinkTask() {
        ConnectFaults.restartTask(rest(), sinkConnector());
    }

    void restartConnectors() {
        ConnectFaults.restartConnectorAndTasks(rest(), sourceConnector());
        ConnectFaults.restartConnectorAndTasks(rest(), sinkConnector());
    }

    void targetDownFor(Duration downtime) throws InterruptedException {
        PostgresFaults.downFor(stack.target(), downtime);
    }

    void sourceDownFor(Duration downtime) throws InterruptedException {
        PostgresFaults.downFor(stack.source(), downtime);
    }

    void restartBroker() {
        stack.kafka().restart();
    }

    void cutSinkNetworkFor(Duration cut) throws InterruptedException {
        targetProxy.cutFor(cut);
    }

    void cutSourceNetworkFor(Duration cut) throws InterruptedException {
        sourceProxy.cutFor(cut);
    }

    void terminateSinkSessions() throws SQLException {
        PostgresFaults.terminateSessions(stack.target(), "pglane-" + sinkConnector());
    }

    void terminateWalSender() throws SQLException {
        PostgresFaults.terminateWalSender(stack.source(), slot());
    }

    private String slot() {
        return rest().connectorConfig(sourceConnector()).getOrDefault("slot.name", "pglane");
    }

    @Override
    public void close() {
        if (sourceProxy != null) {
            sourceProxy.close();
        }
        if (targetProxy != null) {
            targetProxy.close();
        }
        stack.close();
    }
}
