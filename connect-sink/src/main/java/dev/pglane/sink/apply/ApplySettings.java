package dev.pglane.sink.apply;

import java.time.Duration;

/**
 * How the apply sessions work.
 *
 * @param conflictPolicy what an insert of an existing key or an update/delete of a missing row does
 * @param synchronousCommit the sessions' {@code synchronous_commit}
 * @param batchMaxRows most rows of one table and operation per statement or JDBC batch
 * @param applicationName prefix of the sessions' {@code application_name}; a worker's session is
 *     {@code <applicationName>-worker-<n>}
 * @param pipeline whether a transaction's statements go to the target as one pipeline rather than one by one
 * @param truncateCascade whether a source TRUNCATE ... CASCADE cascades on the target too
 * @param lockTimeout the sessions' {@code lock_timeout}, zero for none
 * @param statementTimeout the sessions' {@code statement_timeout}, zero for none
 * @param snapshotTruncate whether the chunk that opens a snapshot's read of a whole table empties its target table
 *     first ({@code snapshot.target.prepare=truncate})
 * @param sequencesMargin added to the sequence values the source sends ({@code sequences.margin})
 */
public record ApplySettings(
        ConflictPolicy conflictPolicy,
        SynchronousCommit synchronousCommit,
        int batchMaxRows,
        String applicationName,
        boolean pipeline,
        boolean truncateCascade,
        Duration lockTimeout,
        Duration statementTimeout,
        boolean snapshotTruncate,
        long sequencesMargin) {

    public ApplySettings {
        if (batchMaxRows < 1) {
            throw new IllegalArgumentException("batchMaxRows must be at least 1: " + batchMaxRows);
        }
    }
}
