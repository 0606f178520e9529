package dev.pglane.it.bench;

import java.nio.file.Path;

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
public record BacklogShape(int scale, int clients, int jobs, int transactionsPerClient, int bulkRows, Path pgbench) {}
