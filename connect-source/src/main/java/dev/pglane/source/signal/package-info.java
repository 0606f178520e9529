/**
 * Signals: requests to the snapshot while the connector runs ({@link dev.pglane.source.signal.Signal}), from a row
 * of the signal table or from the signal topic. {@link dev.pglane.source.signal.KafkaSignalChannel} writes those of
 * the topic into the WAL ({@link dev.pglane.source.signal.SignalMessage}), so that both kinds reach the reader at one
 * point of the stream, where the snapshot stage acts on them.
 */
package dev.pglane.source.signal;
