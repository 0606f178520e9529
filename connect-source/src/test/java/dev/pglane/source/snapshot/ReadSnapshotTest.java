package dev.pglane.source.snapshot;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReadSnapshotTest {

    @Test
    void seesWhatCommittedBeforeItAndNotWhatRanOrStartedLater() {
        ReadSnapshot snapshot = ReadSnapshot.parse("100:110:103,107");
        assertTrue(snapshot.sees(99));
        assertTrue(snapshot.sees(104));
        assertFalse(snapshot.sees(103));
        assertFalse(snapshot.sees(107));
        assertFalse(snapshot.sees(110));
        assertFalse(snapshot.sees(250));
    }

    @Test
    void xidsAreWidenedWithTheEpochClosestToTheSnapshot() {
        long epoch = 3L << 32;
        ReadSnapshot snapshot = ReadSnapshot.parse((epoch + 5) + ":" + (epoch + 20) + ":" + (epoch + 8));
        assertTrue(snapshot.sees(0xFFFF_FFF0L), "an xid of the epoch before, long committed");
        assertFalse(snapshot.sees(8));
        assertTrue(snapshot.sees(9));
        assertFalse(snapshot.sees(25), "started after the snapshot, in its epoch");
    }
}
