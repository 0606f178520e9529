package dev.pglane.local.stack;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Where a running stack can be reached; {@code ./pglane-local} keeps it as {@code endpoints.json}.
 *
 * @param sourceConnector the source connector's name, or null when the stack created none
 * @param sinkConnector the sink connector's name, or null when the stack created none
 * @param metricsUrl where Prometheus' JMX exporter serves the stack's connector metrics, or null (and absent from the
 *     file) when the stack runs without it
 */
public record Endpoints(
        String sourceJdbcUrl,
        String targetJdbcUrl,
        String bootstrapServers,
        String connectRestUrl,
        String sourceConnector,
        String sinkConnector,
        @JsonInclude(JsonInclude.Include.NON_NULL) String metricsUrl) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Endpoints without a metrics endpoint. */
    public Endpoints(
            String sourceJdbcUrl,
            String targetJdbcUrl,
            String bootstrapServers,
            String connectRestUrl,
            String sourceConnector,
            String sinkConnector) {
        this(sourceJdbcUrl, targetJdbcUrl, bootstrapServers, connectRestUrl, sourceConnector, sinkConnector, null);
    }

    /** These endpoints with the exporter's {@code /metrics} on {@code port} of this host. */
    public Endpoints withMetricsPort(int port) {
        return new Endpoints(
                sourceJdbcUrl,
                targetJdbcUrl,
                bootstrapServers,
                connectRestUrl,
                sourceConnector,
                sinkConnector,
                "http://127.0.0.1:" + port + "/metrics");
    }

    /** These endpoints naming the pipeline's two connectors. */
    public Endpoints withConnectors(String source, String sink) {
        return new Endpoints(sourceJdbcUrl, targetJdbcUrl, bootstrapServers, connectRestUrl, source, sink, metricsUrl);
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the file whole or not at all, so a reader polling for it never sees half of it. */
    public void write(Path file) {
        try {
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            Files.writeString(partial, toJson() + System.lineSeparator());
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static Endpoints read(Path file) {
        try {
            return JSON.readValue(file.toFile(), Endpoints.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read endpoints from " + file, e);
        }
    }
}
