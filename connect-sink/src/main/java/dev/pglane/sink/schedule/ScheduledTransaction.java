package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.SourceTransaction;

/**
 * A submitted transaction with its place in commit order.
 *
 * @param sequence its position in commit order, from 1
 * @param dependsOn it may start once this sequence has committed
 * @param mayOverlap it may start already once this sequence and every one before it have applied
 */
record ScheduledTransaction(long sequence, long dependsOn, boolean mayOverlap, SourceTransaction tx) {}
