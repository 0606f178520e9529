/**
 * Debezium's own PostgreSQL topics read as pglane's wire model, so that pglane's sink can apply them: the
 * transaction metadata topic ({@code provide.transaction.metadata=true}) as BEGIN and END markers, and the change
 * envelopes as {@link dev.pglane.wire.envelope.ChangeEvent}s of those transactions.
 *
 * <p>What Debezium's topics do not carry, and how it is made up for:
 *
 * <ul>
 *   <li>No generations: a restarted Debezium task resumes its transaction's numbering from its offset, so a record it
 *       sends again has the {@code total_order} it had, and the copy of the transaction drops it as a duplicate.
 *       Every record and marker is read as generation 0.
 *   <li>No end LSN field: Debezium's transaction id is {@code "<xid>:<lsn>"}, with the LSN of the last message it
 *       read; on END that is the commit message, whose position is the transaction's end LSN, increasing in commit
 *       order: the sink's applied position.
 *   <li>No list of unchanged TOAST columns: Debezium writes a placeholder value in their place; a column holding it
 *       is read as unchanged, so the target keeps its value.
 * </ul>
 */
package dev.pglane.wire.debezium;
