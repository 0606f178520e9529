package dev.pglane.local.bench;

import java.nio.file.Path;
import java.util.Locale;

/**
 * What a {@link Backlog} writes.
 *
 * @param scale pgbench's {@code -i -s}
 * @param clients pgbench's {@code -c}
 * @param jobs pgbench's {@code -j}
 * @param transactionsPerClient pgbench's {@code -t}
 * @param bulkRows rows of the bulk backlog (in 1,000-row transactions)
 * @param pgbench the pgbench binary
 */
public record BacklogShape(int scale, int clients, int jobs, int transactionsPerClient, int bulkRows, Path pgbench) {
    /** pgbench's part, for reports: {@code pgbench -i -s 10, then -c 8 -j 2 -t 30000}. */
    String pgbenchCommand() {
        return String.format(
                Locale.ROOT, "pgbench -i -s %d, then -c %d -j %d -t %d", scale, clients, jobs, transactionsPerClient);
    }
}
