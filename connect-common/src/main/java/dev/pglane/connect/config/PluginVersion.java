package dev.pglane.connect.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Properties;

/**
 * The plugin's version, read from the {@code version.properties} resource that the build writes next to the
 * connector class, so the version is stated only in the pom.
 */
public final class PluginVersion {
    private PluginVersion() {}

    /** The {@code version} in {@code version.properties} of {@code connectorClass}'s package. */
    public static String of(Class<?> connectorClass) {
        try (InputStream in = connectorClass.getResourceAsStream("version.properties")) {
            Properties properties = new Properties();
            properties.load(Objects.requireNonNull(in, "version.properties is missing from the plugin jar"));
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
