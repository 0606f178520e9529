package dev.pglane.connect.config;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * The frame of pglane's cleanup commands: one argument, the connector's config as its REST JSON
 * ({@link ConnectorConfigFile}); exit status 0 when nothing of the connector is left, 1 when something stays or the
 * work failed, 2 for a config it cannot use.
 */
public final class CleanupCommand {
    /** The command's own work. */
    public interface Cleanup {
        /**
         * Cleans up after the connector {@code props} configure, reporting to {@code out}.
         *
         * @return true when nothing of it is left
         * @throws ConfigException if {@code props} are not a usable config
         */
        boolean clean(Map<String, String> props, PrintStream out) throws SQLException;
    }

    private CleanupCommand() {}

    /** Runs {@code cleanup} on the config file {@code args} name; returns the exit status. */
    public static int run(String command, String[] args, PrintStream out, Cleanup cleanup) {
        if (args.length != 1) {
            out.println("usage: " + command + " <connector config JSON, as for the Connect REST API>");
            return 2;
        }
        try {
            return cleanup.clean(ConnectorConfigFile.read(Path.of(args[0])), out) ? 0 : 1;
        } catch (IOException | ConfigException e) {
            out.println("Cannot use the connector config " + args[0] + ": " + e.getMessage());
            return 2;
        } catch (SQLException e) {
            out.println(command + " failed: " + e.getMessage());
            return 1;
        }
    }
}
