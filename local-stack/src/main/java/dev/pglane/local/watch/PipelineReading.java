package dev.pglane.local.watch;

import dev.pglane.wire.Lsn;

/**
 * One look at a running pipeline through its connectors' own task metrics (summed over tasks): where the source
 * server's WAL is, what the sink has applied, and how fast each end moves.
 *
 * @param sourceLsn the source server's WAL position as the source connector last knew it: the newer of what its
 *     keepalives reported ({@code server-wal-lsn}) and the last message received ({@code received-lsn})
 * @param appliedLsn the source end LSN of the last transaction the sink committed on the target ({@code applied-lsn})
 * @param lagMs now minus the source commit time of the last applied transaction, while work is pending
 *     ({@code lag-ms}); zero when the sink has nothing left to apply
 * @param sourceTxPerSecond transactions the source connector saw commit, per second
 * @param sourceRowsPerSecond row changes the source connector handed to Connect, per second
 * @param targetTxPerSecond transactions the sink committed on the target, per second
 * @param targetRowsPerSecond rows the sink applied, per second
 * @param busyWorkers apply workers holding a transaction
 * @param applyWorkers the sink's {@code apply.workers}, or 0 when unknown
 * @param bufferedTransactions transactions held by the sink's assembler
 */
public record PipelineReading(
        Lsn sourceLsn,
        Lsn appliedLsn,
        long lagMs,
        double sourceTxPerSecond,
        double sourceRowsPerSecond,
        double targetTxPerSecond,
        double targetRowsPerSecond,
        long busyWorkers,
        int applyWorkers,
        long bufferedTransactions) {

    /**
     * WAL bytes the sink has still to apply: from its applied LSN to the source server's position; zero before
     * either is known, or when the keepalive that reports the server's position is older than the last apply.
     */
    public long lagBytes() {
        if (!sourceLsn.isValid() || !appliedLsn.isValid() || sourceLsn.compareTo(appliedLsn) <= 0) {
            return 0L;
        }
        return sourceLsn.bytesSince(appliedLsn);
    }
}
