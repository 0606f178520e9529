package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.local.consistency.ConsistencyWorkload;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The knobs of {@link ConsistencyIT} and {@link TableGroupsClusterIT}: their seed and size from system properties,
 * the steps both take with the running workload, and the check that the source's streaming mode took effect, from the
 * server's slot statistics.
 */
final class ConsistencySettings {
    /** Reruns the sessions' choices of an earlier run: its seed, as the run printed it. */
    static final String SEED_PROPERTY = "pglane.consistency.seed";
    /** The majors to run on, comma-separated; unset: the default major alone, also in CI. */
    static final String VERSIONS_PROPERTY = "pglane.consistency.versions";
    /** Transactions each run commits (the matrix command raises it). */
    static final String TRANSACTIONS_PROPERTY = "pglane.consistency.transactions";

    private static final int DEFAULT_TRANSACTIONS = 1_500;
    private static final Duration STARTUP = Duration.ofSeconds(60);

    private ConsistencySettings() {}

    /** Waits until the workload has committed {@code transactions}, failing at once if a session failed. */
    static void awaitCommitted(ConsistencyWorkload.Running running, long transactions, Duration timeout) {
        Waits.until(
                "the workload commits " + transactions + " transactions (" + running.summary() + ")", timeout, () -> {
                    running.throwIfFailed();
                    return running.summary().committed() >= transactions;
                });
    }

    /** The transactions the workload's log in {@code schema} holds on {@code server}: each logs itself once. */
    static long loggedTransactions(PostgresNode server, String schema) throws SQLException {
        try (SqlSession session = SqlSession.open(server)) {
            return ((Number) session.queryValue("SELECT count(*) FROM " + schema + ".tx_log")).longValue();
        }
    }

    /** The majors of {@value #VERSIONS_PROPERTY}, or {@link PostgresVersion#fromProperty()} alone. */
    static List<PostgresVersion> versions() {
        String versions = System.getProperty(VERSIONS_PROPERTY);
        if (versions == null || versions.isBlank()) {
            return List.of(PostgresVersion.fromProperty());
        }
        return Arrays.stream(versions.split(",")).map(PostgresVersion::parse).toList();
    }

    /** The seed of {@value #SEED_PROPERTY}, or a new random one. */
    static long seed() {
        String seed = System.getProperty(SEED_PROPERTY);
        return seed == null || seed.isBlank() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(seed.trim());
    }

    static int transactions() {
        String transactions = System.getProperty(TRANSACTIONS_PROPERTY);
        return transactions == null || transactions.isBlank()
                ? DEFAULT_TRANSACTIONS
                : Integer.parseInt(transactions.trim());
    }

    /**
     * Asserts whether the server streamed transactions through the slot ({@code pg_stat_replication_slots}); the
     * count may reach the statistics a moment after the changes reached the sink, so a positive one is waited for.
     */
    static void assertStreamed(PostgresNode source, String slot, boolean streamed) throws SQLException {
        if (streamed) {
            Waits.until(
                    "the source streamed transactions through slot " + slot,
                    STARTUP,
                    () -> streamedTransactions(source, slot) > 0);
        } else {
            assertEquals(0, streamedTransactions(source, slot), "transactions streamed through slot " + slot);
        }
    }

    private static long streamedTransactions(PostgresNode source, String slot) throws SQLException {
        try (SqlSession session = SqlSession.open(source)) {
            Object streamed = session.queryValue(
                    "SELECT coalesce(sum(stream_txns), 0) FROM pg_stat_replication_slots WHERE slot_name = ?", slot);
            return ((Number) streamed).longValue();
        }
    }
}
