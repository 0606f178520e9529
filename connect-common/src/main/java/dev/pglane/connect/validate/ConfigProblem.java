package dev.pglane.connect.validate;

/** A validation finding: the key the user has to change, and what is wrong with it. */
public record ConfigProblem(String key, String message) {}
