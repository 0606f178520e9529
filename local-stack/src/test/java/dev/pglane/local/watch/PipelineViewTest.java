package dev.pglane.local.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipelineViewTest {
    private static final PipelineReading READING = new PipelineReading(
            Lsn.parse("0/3000000"), Lsn.parse("0/2F00000"), 1_240, 410.4, 1_650.6, 398.0, 1_602.0, 3, 4, 17);

    @Test
    void frameShowsBothEndsLagAndApply() {
        List<String> frame = PipelineView.frame("workload running, 3 s of 30 s", READING);
        assertEquals(5, frame.size());
        assertEquals("pglane  workload running, 3 s of 30 s", frame.get(0));
        assertEquals("  source  LSN 0/3000000                410 tx/s       1,651 rows/s", frame.get(1));
        assertEquals("  sink    LSN 0/2F00000                398 tx/s       1,602 rows/s", frame.get(2));
        assertEquals("  lag     1.2 s behind, 1.0 MiB of WAL", frame.get(3));
        assertEquals("  apply   3/4 workers busy, 17 transactions buffered", frame.get(4));
        // wider than a terminal, a line wraps and the redraw would go up too few lines
        frame.forEach(line -> assertTrue(line.length() < 80, line));
    }

    @Test
    void plainLineCarriesTheSameFigures() {
        assertEquals(
                "caught up | source 0/3000000 410 tx/s 1,651 rows/s | sink applied 0/2F00000 398 tx/s 1,602 rows/s"
                        + " | lag 1.2 s, 1.0 MiB | 3/4 workers busy | 17 tx buffered",
                PipelineView.line("caught up", READING));
    }

    @Test
    void lagBytesIsZeroUntilBothEndsAreKnownOrWhenTheKeepaliveIsOlderThanTheApply() {
        assertEquals(0x100000L, READING.lagBytes());
        assertEquals(0L, reading(Lsn.parse("0/3000000"), Lsn.INVALID).lagBytes());
        assertEquals(0L, reading(Lsn.parse("0/2000000"), Lsn.parse("0/3000000")).lagBytes());
    }

    @Test
    void bytesInBinaryUnits() {
        assertEquals("0 B", PipelineView.bytes(0));
        assertEquals("1023 B", PipelineView.bytes(1023));
        assertEquals("1.5 KiB", PipelineView.bytes(1536));
        assertEquals("2.0 GiB", PipelineView.bytes(2L << 30));
    }

    private static PipelineReading reading(Lsn source, Lsn applied) {
        return new PipelineReading(source, applied, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
