package dev.pglane.sink.assemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.progress.AppliedPosition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Feeds a simulated source's three partitions and marker topic in random interleavings, with random
 * redeliveries, and checks that the assembler releases exactly what the reference consumer applies.
 */
@Timeout(120)
class TransactionAssemblerPropertyTest {
    @TempDir
    Path spillDirectory;

    private final Map<String, Long> dropped = new HashMap<>();
    private long spilled;

    private final AssemblerListener listener = new AssemblerListener() {
        @Override
        public void spilled(long xid, long bytes) {
            spilled += bytes;
        }

        @Override
        public void dropped(String reason, long records) {
            dropped.merge(reason, records, Long::sum);
        }
    };

    @ParameterizedTest(name = "buffer of {0} bytes")
    @ValueSource(longs = {1L << 30, 2_000})
    void releasesWhatTheReferenceAppliesInEveryInterleaving(long maxBytes) throws IOException {
        for (long seed = 1; seed <= 200; seed++) {
            SimulatedSource source = new SimulatedSource(seed);
            List<SimulatedSource.Item> deliveries = SimulatedSource.deliveries(source.streams(), new Random(seed * 31));

            List<SimulatedSource.Applied> released = run(deliveries, maxBytes, seed);

            assertEquals(source.applied(), released, "seed " + seed);
        }
        // the runs went through every rule, and spilled when the buffer was small
        assertEquals(Set.of("duplicate", "stale", "aborted", "already applied"), dropped.keySet());
        assertEquals(maxBytes < 10_000, spilled > 0);
    }

    private List<SimulatedSource.Applied> run(List<SimulatedSource.Item> deliveries, long maxBytes, long seed)
            throws IOException {
        List<SimulatedSource.Applied> released = new ArrayList<>();
        try (SpillArea spillArea = SpillArea.open(spillDirectory, "property-test");
                TransactionAssembler assembler = new TransactionAssembler(
                        new AssemblerSettings(maxBytes, spillArea, Long.MAX_VALUE, topic -> true),
                        AppliedPosition.NONE,
                        listener)) {
            for (SimulatedSource.Item item : deliveries) {
                if (item.change() != null) {
                    assembler.addChange(item.change());
                } else {
                    assembler.addMarker(item.marker(), item.partition(), item.offset());
                }
                for (SourceTransaction transaction : assembler.drainReady()) {
                    assertTrue(transaction.firstOffsets().get(Changes.MARKERS) <= transaction.markerOffset());
                    released.add(new SimulatedSource.Applied(
                            transaction.xid(), transaction.end().generation(), Changes.orders(transaction)));
                    transaction.changes().close();
                }
            }
            assertEquals(0, assembler.bufferedTransactions(), "seed " + seed + ": nothing left behind");
            assertTrue(assembler.pendingFloors().isEmpty(), "seed " + seed);
        }
        return released;
    }
}
