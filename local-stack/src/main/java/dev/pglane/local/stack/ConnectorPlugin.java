package dev.pglane.local.stack;

/** One entry of {@code GET /connector-plugins}. */
public record ConnectorPlugin(String className, String type, String version) {}
