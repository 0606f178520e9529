/**
 * The change record value: a Debezium-compatible envelope ({@code before}, {@code after},
 * {@code source}, {@code op}, {@code ts_*}, {@code transaction}) extended with what a transactional
 * consumer needs ({@code transaction.xid/subxid/generation}, {@code unchanged_toast},
 * {@code text_values}, {@code truncate}, {@code message}). {@link dev.pglane.wire.envelope.ChangeEvent}
 * is the Java value, {@link dev.pglane.wire.envelope.EnvelopeSchemas} builds the Connect schemas and
 * {@link dev.pglane.wire.envelope.ChangeEnvelope} converts between the two.
 */
package dev.pglane.wire.envelope;
