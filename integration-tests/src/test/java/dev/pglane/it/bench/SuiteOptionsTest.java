package dev.pglane.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SuiteOptionsTest {
    @Test
    void defaultsAreTheIssuesSizes() {
        SuiteOptions options = SuiteOptions.parse(new String[0]);

        assertEquals(3, options.runs());
        assertEquals(List.of(Workload.PGBENCH, Workload.BULK), options.workloads());
        assertEquals(30_000, options.backlog().transactionsPerClient(), "240,000 over 8 clients");
        assertEquals(10, options.backlog().scale());
        assertEquals(2_000_000, options.backlog().bulkRows());
        assertEquals(List.of(1, 2, 4, 8), options.workers());
        assertEquals(Path.of("integration-tests/target/engine-classpath.txt"), options.engineClasspath());
    }

    @Test
    void quickShrinksTheDefaultsAndOptionsBesideItWin() {
        SuiteOptions options = SuiteOptions.parse(new String[] {"--quick", "--runs", "2", "--no-engine"});

        assertEquals(2, options.runs());
        assertEquals(500, options.backlog().transactionsPerClient());
        assertEquals(1, options.backlog().scale());
        assertEquals(50_000, options.backlog().bulkRows());
        assertEquals(List.of(1, 4), options.workers());
        assertNull(options.engineClasspath());
    }

    @Test
    void aMisspeltOptionIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> SuiteOptions.parse(new String[] {"--quik"}));
    }
}
