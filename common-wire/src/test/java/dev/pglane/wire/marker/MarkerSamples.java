package dev.pglane.wire.marker;

import dev.pglane.wire.Lsn;
import java.util.List;

/** One marker of each kind, shared by the codec and converter round-trip tests. */
public final class MarkerSamples {

    private MarkerSamples() {}

    public static Marker.End end() {
        return new Marker.End(
                4,
                4_000_000_000L,
                Lsn.parse("FFFFFFFF/100"),
                Lsn.parse("FFFFFFFF/130"),
                1_700_000_000_123_456L,
                5,
                List.of(
                        new DataCollectionCount("public.orders", 3, "shop.public.orders"),
                        new DataCollectionCount("public.items", 1, "shop.public.items"),
                        new DataCollectionCount(DataCollectionCount.MESSAGES, 1, "shop.messages")));
    }

    /** The END of a snapshot chunk: the last of its table and of the snapshot. */
    public static Marker.End snapshotEnd() {
        return new Marker.End(
                4,
                572,
                Lsn.parse("0/32B5000"),
                Lsn.parse("0/32B5030"),
                1_700_000_000_200_000L,
                2,
                List.of(new DataCollectionCount("public.orders", 2, "shop.public.orders")),
                new SnapshotChunk(
                        "1700000000000",
                        "public.orders",
                        7,
                        true,
                        true,
                        new SnapshotChunk.KeyRange(List.of("region", "id"), List.of("eu", "70"), null)));
    }

    /** The END of a table's first chunk, which opens a read of the whole table. */
    public static Marker.End tableStartEnd() {
        return new Marker.End(
                4,
                573,
                Lsn.parse("0/32B6000"),
                Lsn.parse("0/32B6030"),
                1_700_000_000_300_000L,
                0,
                List.of(),
                new SnapshotChunk(
                        "1700000000000",
                        "public.items",
                        0,
                        false,
                        false,
                        new SnapshotChunk.KeyRange(List.of("id"), null, List.of("5000")),
                        true));
    }

    public static List<Marker> all() {
        return List.of(
                new Marker.Begin(4, 571, Lsn.parse("0/32B3B48"), 1_700_000_000_000_001L),
                end(),
                new Marker.Abort(4, 1_700_000_002_000L, 571, 580, Lsn.parse("0/32B4000")),
                new Marker.Abort(4, 1_700_000_002_000L, 571, 571, Lsn.INVALID),
                new Marker.Start(5, 1_700_000_003_000L, Lsn.parse("0/32B3B78")),
                new Marker.Heartbeat(5, 1_700_000_004_000L, Lsn.parse("0/40000000")),
                snapshotEnd(),
                tableStartEnd());
    }
}
