package dev.pglane.source.sequences;

/**
 * The value a captured table's column's sequence (serial or identity) last handed out.
 *
 * @param lastValue {@code pg_sequences.last_value}
 */
public record SequenceValue(String schema, String table, String column, long lastValue) {}
