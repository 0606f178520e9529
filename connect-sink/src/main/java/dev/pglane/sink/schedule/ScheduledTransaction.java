package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.SourceTransaction;

/**
 * A submitted transaction with its place in commit order.
 *
 * @param sequence its position in commit order, from 1
 * @param dependsOn it may start once this sequence has committed
 */
record ScheduledTransaction(long sequence, long dependsOn, SourceTransaction tx) {}
