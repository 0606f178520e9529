/**
 * Markers on {@code <prefix>.transactions} and the rule that makes source restarts harmless.
 *
 * <h2>Generations</h2>
 *
 * <p>Each run of the source task has a generation, one more than the generation stored in the
 * source offset it resumed from. Before emitting anything else, the run writes
 * {@link dev.pglane.wire.marker.Marker.Start START}(generation g, resume LSN), and it stamps g on
 * every change record ({@code transaction.generation}) and marker it writes afterwards.
 *
 * <h2>The discard rule (consumers)</h2>
 *
 * <p>Judge only by the marker topic (one partition, so its order is the stream order). Never judge
 * by a data partition: data partitions lag each other and the marker topic, so a record that looks
 * old there may simply be late.
 *
 * <ol>
 *   <li>Group change records by (xid, generation). Records of different generations never belong to
 *       the same copy of a transaction.
 *   <li>A copy (xid, g) is complete when the marker topic holds END(xid, generation g) and all
 *       {@code event_count} records of (xid, g) have arrived, minus those cancelled by rule 4; the
 *       per-table {@code data_collections} counts must match too. Apply the transaction from a
 *       complete copy, in marker (END) order.
 *   <li>When START(g) appears on the marker topic, every copy (xid, g') with g' &lt; g that has no
 *       END before that START is a <em>stale partial copy</em>: the run that wrote it ended before
 *       the transaction was complete. Drop what is buffered of it and drop its records wherever they
 *       arrive later (they may still be in flight in lagging partitions). The new run sends the
 *       transaction again from its start if it committed.
 *   <li>ABORT(xid, subxid, generation g) cancels the records of (xid, g) whose
 *       {@code transaction.subxid} equals {@code subxid}; when {@code subxid == xid} it cancels the
 *       whole copy (xid, g). PostgreSQL reports the abort of each subtransaction separately,
 *       including the committed children of an aborted subtransaction.
 *   <li>A transaction whose END {@code end_lsn} is at or below the consumer's applied position is
 *       already applied: drop every copy of it. This makes the duplicates of a restart harmless: the
 *       source may re-send transactions between its last committed offset and the crash, with a new
 *       generation.
 *   <li>A copy (xid, g) with its END can still lack records for good: a run killed while its
 *       producer held some of them loses those, though the END, sent on another partition, may have
 *       got through. The run's offset never passed the lost records, so a later run sends the
 *       transaction again. Once a later copy (xid, g'' &gt; g) has its END with the same
 *       {@code end_lsn} and is complete, apply it in place of (xid, g), then drop (xid, g) and its
 *       records that still arrive.
 * </ol>
 *
 * <p>Several complete copies of the same transaction (one per generation) are possible after a
 * restart; their content is the same committed transaction, so applying the first and skipping the
 * others by rule 5 is correct. The rule assumes that at most one run of the source task writes at a
 * time, which Connect guarantees for a healthy worker and exactly-once source support enforces
 * (zombie fencing).
 */
package dev.pglane.wire.marker;
