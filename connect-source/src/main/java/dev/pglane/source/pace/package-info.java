/**
 * The snapshot's pace: with {@code snapshot.pace.group} set, the snapshot starts a new chunk only while the sink's
 * consumer group has at most {@code snapshot.pace.max.lag.records} records left to apply, so the rows it sends never
 * pile up in Kafka ahead of the stream's own transactions. {@link dev.pglane.source.pace.GroupLagWatch} reads the
 * group's lag from Kafka; the snapshot stage asks {@link dev.pglane.source.pace.SnapshotPace} before each chunk.
 */
package dev.pglane.source.pace;
