package dev.pglane.source.snapshot;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.source.pace.SnapshotPace;
import dev.pglane.source.seal.MessageSeal;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How a session's snapshots read: the initial one and any a signal starts.
 *
 * @param seal the connector's seal, which its watermarks carry
 * @param threads sessions that read chunks at once
 * @param chunkRows rows per chunk
 * @param chunkBytes bytes per chunk at most, at a table's average row size; 0: rows only
 * @param keylessMaxBytes most COPY text of a keyless table, read as one chunk held in memory
 * @param serials numbers the chunk reads of the session, across the snapshots signals start in it
 * @param signalTable {@code schema.table} of the signal table, never snapshotted; {@code null} when none
 * @param pace what new chunks wait for: the stream's consumers, so that chunks do not pile up ahead of it
 */
public record SnapshotReadSettings(
        String connectorName,
        MessageSeal seal,
        long generation,
        int threads,
        long chunkRows,
        long chunkBytes,
        long keylessMaxBytes,
        DatabaseEndpoint endpoint,
        AtomicLong serials,
        String signalTable,
        SnapshotPace pace) {}
