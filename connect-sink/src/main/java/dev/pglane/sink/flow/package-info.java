/**
 * How fast records come in: the task thread pauses and resumes partitions so that what the sink holds stays bounded
 * (released transactions and held bytes, copies waiting for a lagging partition, spill files) while the partitions
 * the next transaction in commit order waits for keep flowing, and says when that transaction has waited long.
 */
package dev.pglane.sink.flow;
