package dev.pglane.source.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotProgressTest {

    @Test
    void progressRoundTripsThroughItsTextWhateverTheNamesAndKeysHold() {
        SnapshotProgress progress = SnapshotProgress.start("42", List.of("public.a", "odd;sch=ema.t,ab le", "public.c"))
                .with("odd;sch=ema.t,ab le", new ChunkBound.Key(List.of("x;=,%", "2024-01-01 00:00:00+00")), false)
                .with("public.c", null, true);
        SnapshotProgress read = SnapshotProgress.parse(progress.toText());
        assertEquals("42", read.snapshotId());
        assertEquals(progress.toText(), read.toText());
        assertNull(read.remaining().get("public.a"));
        assertTrue(read.remaining().containsKey("public.a"));
        assertEquals(
                new ChunkBound.Key(List.of("x;=,%", "2024-01-01 00:00:00+00")),
                read.remaining().get("odd;sch=ema.t,ab le"));
        assertTrue(read.isDone("public.c"));
        assertFalse(read.complete());
        assertTrue(read.with("public.a", null, true)
                .with("odd;sch=ema.t,ab le", null, true)
                .complete());
    }

    @Test
    void aTextOfAnotherVersionIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> SnapshotProgress.parse("2;42;public.a=-"));
        assertThrows(IllegalArgumentException.class, () -> SnapshotProgress.parse("1;42;public.a=q1"));
    }
}
