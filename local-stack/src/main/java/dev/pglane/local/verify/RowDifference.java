package dev.pglane.local.verify;

import java.util.List;

/**
 * The first key, in key order, at which source and target disagree.
 *
 * @param sourceRow the source's row text, or null when only the target has the key
 * @param targetRow the target's row text, or null when only the source has the key
 */
public record RowDifference(List<String> key, String sourceRow, String targetRow) {}
