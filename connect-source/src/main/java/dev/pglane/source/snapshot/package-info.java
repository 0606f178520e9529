/**
 * The snapshot: existing rows sent while the stream goes on, in chunks between watermarks.
 *
 * <p>{@link dev.pglane.source.snapshot.SnapshotRunner} cuts each captured table into key ranges and reads them on
 * {@code snapshot.threads} connections ({@code ChunkReader}: low watermark, a wait for the transactions running then,
 * a REPEATABLE READ COPY, high watermark). {@link dev.pglane.source.snapshot.SnapshotStream} is the reader thread's
 * side: between a chunk's watermarks it keeps the table's changes ({@code ChunkWindow}), and at the high watermark it
 * replays those the chunk's snapshot did not see, so the chunk, sent as the records of the watermark's transaction,
 * holds the rows as they are at that point of the stream. The progress ({@link
 * dev.pglane.source.snapshot.SnapshotProgress}) rides in the source offset of each END, so a restart continues with
 * the next chunk. docs/snapshot.md gives the argument.
 */
package dev.pglane.source.snapshot;
