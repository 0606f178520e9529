package dev.pglane.connect.database;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens a connection under an application name: a {@link DatabaseEndpoint}'s {@code connect}, or in a test one that
 * fails the way a test needs.
 */
@FunctionalInterface
public interface ConnectionOpener {
    Connection open(String applicationName) throws SQLException;
}
