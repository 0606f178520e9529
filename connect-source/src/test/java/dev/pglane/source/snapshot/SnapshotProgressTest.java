package dev.pglane.source.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.signal.RowCondition;
import dev.pglane.source.signal.SnapshotFilter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
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
    void aFilteredTableKeepsItsRangeEndAndConditionAcrossARestart() {
        SnapshotProgress progress = SnapshotProgress.start(
                "signal-7",
                List.of("public.a", "public.b"),
                Map.of(
                        "public.a",
                        new SnapshotFilter(
                                List.of("10"), List.of("20", "x!;="), RowCondition.parse("note <> 'a=b!c%'"))));
        assertTrue(progress.toText().startsWith("2;"), "a version unfiltered progress readers refuse");
        assertEquals(new ChunkBound.Key(List.of("10")), progress.remaining().get("public.a"), "starts at from");
        SnapshotProgress read =
                SnapshotProgress.parse(progress.with("public.a", new ChunkBound.Key(List.of("15")), false)
                        .toText());
        assertEquals(new ChunkBound.Key(List.of("15")), read.remaining().get("public.a"));
        assertEquals(
                new SnapshotFilter(null, List.of("20", "x!;="), RowCondition.parse("note <> 'a=b!c%'")),
                read.filter("public.a"));
        assertNull(read.filter("public.b"));
        SnapshotProgress done = read.with("public.a", null, true);
        assertNull(done.filter("public.a"));
        assertTrue(done.toText().startsWith("1;"), "without filters the text is what version 1 readers read");
        SnapshotProgress again = done.restart("public.a", SnapshotFilter.where("id >= 0"));
        assertFalse(again.isDone("public.a"));
        assertEquals(
                SnapshotFilter.where("id >= 0"),
                SnapshotProgress.parse(again.toText()).filter("public.a"));
    }

    @Test
    void rangesSentBeyondABoundTravelWithItAndGoWhenTheTableIsDone() {
        SentRange middle =
                new SentRange(new ChunkBound.Key(List.of("2~0", "b!")), new ChunkBound.Key(List.of("3", "")));
        SentRange last = new SentRange(new ChunkBound.Key(List.of("5", "a")), null);
        SnapshotProgress progress = SnapshotProgress.start(
                        "7", List.of("public.a", "public.b"), Map.of("public.b", SnapshotFilter.where("id > 1")))
                .with("public.a", new ChunkBound.Key(List.of("1", "z")), List.of(middle, last), false);
        assertTrue(progress.toText().startsWith("3;"), "a version that readers without sent ranges refuse");
        SnapshotProgress read = SnapshotProgress.parse(progress.toText());
        assertEquals(List.of(middle, last), read.sentAhead("public.a"));
        assertEquals(new ChunkBound.Key(List.of("1", "z")), read.remaining().get("public.a"));
        assertNull(read.filter("public.a"), "sent ranges are no filter");
        assertEquals(SnapshotFilter.where("id > 1"), read.filter("public.b"));
        assertEquals(progress.toText(), read.toText());

        SnapshotProgress done = read.with("public.a", null, true);
        assertEquals(List.of(), done.sentAhead("public.a"));
        assertTrue(done.toText().startsWith("2;"));
    }

    @Test
    void aTextOfAnotherVersionIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> SnapshotProgress.parse("4;42;public.a=-"));
        assertThrows(IllegalArgumentException.class, () -> SnapshotProgress.parse("1;42;public.a=q1"));
    }

    @Test
    void aStoredConditionTheGrammarRefusesIsNotRunItsTableIsLeftOut() {
        // an older version took conditions as SQL text, and its progress may carry one
        String stored = URLEncoder.encode("pg_catalog.pg_sleep(60) IS NULL", StandardCharsets.UTF_8);
        SnapshotProgress read = SnapshotProgress.parse("2;42;public.a=k5!w" + stored + ";public.b=-");
        assertTrue(read.isDone("public.a"));
        assertNull(read.filter("public.a"));
        assertEquals(List.of("public.b"), List.copyOf(read.remaining().keySet()));
    }
}
