/**
 * Who wrote a logical decoding message. {@code pg_logical_emit_message} is executable by every login unless revoked,
 * so the prefix and content of a message prove nothing about its author. The connector seals the messages that
 * steer it (snapshot watermarks, signals of the signal topic, captured-table lists, sequence values) with a key only
 * it holds ({@link dev.pglane.source.seal.MessageSeal}), and the reader obeys a message addressed to it only when the
 * seal checks; every other one is counted and warned of ({@link dev.pglane.source.seal.RefusedMessages}).
 */
package dev.pglane.source.seal;
