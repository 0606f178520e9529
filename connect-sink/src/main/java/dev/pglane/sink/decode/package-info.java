/**
 * Turning what Kafka delivers into the assembler's input: a marker, a change the sink may apply, or a record it
 * cannot use. With {@code payload.format=json} the task receives the records' bytes and decodes them here, on
 * several threads at once, instead of on Connect's single task thread.
 */
package dev.pglane.sink.decode;
