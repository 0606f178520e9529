package dev.pglane.source.pgoutput;

/** {@code 'E'}: the current chunk of a streamed transaction ends. */
public record StreamStopMessage() implements PgOutputMessage {}
