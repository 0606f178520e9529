/**
 * The wire contract shared by the pglane source, the sink and any other consumer: WAL positions
 * ({@link dev.pglane.wire.Lsn}), transaction ids ({@link dev.pglane.wire.Xid}), topic names
 * ({@link dev.pglane.wire.TopicNames}), the record key ({@link dev.pglane.wire.TransactionKey}) and the
 * source offset and slot contract ({@link dev.pglane.wire.SourceOffset}). Change values are in
 * {@code envelope}, commit markers in {@code marker}, PostgreSQL type mapping in {@code types}, Avro
 * schemas in {@code avro}. {@code docs/wire-format.md} describes the same contract for consumers
 * written in other languages.
 */
package dev.pglane.wire;
