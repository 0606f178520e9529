package dev.pglane.source.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TypeMessage;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.ValueMappings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The main map and the per-stream overlays. */
class RelationCacheTest {

    private static final int ORDERS = 16384;
    private final List<TypeMessage> announced = new ArrayList<>();
    private final RelationCache cache = new RelationCache(new RelationDescriptorFactory(
            "shop",
            TopicNames.perTable("shop"),
            ValueMappings.DEFAULT,
            new EnvelopeSchemas(),
            new TypeCatalog() {
                @Override
                public PgColumnType resolve(int typeOid, int typeModifier) {
                    return PgColumnType.of(typeOid, typeModifier);
                }

                @Override
                public void announced(TypeMessage message) {
                    announced.add(message);
                }
            },
            RowKeyColumns.NONE));

    @Test
    void aStreamSeesItsOwnVersionAndEveryoneElseTheMainOne() {
        RelationDescriptor main = cache.apply(orders(0, "id"));
        RelationDescriptor streamed = cache.apply(orders(700, "id", "note"));
        assertSame(main, cache.get(ORDERS, 0));
        assertSame(streamed, cache.get(ORDERS, 700));
        assertSame(main, cache.get(ORDERS, 701), "another stream falls back to the main map");
        assertEquals(2, cache.get(ORDERS, 700).columns().size());
    }

    @Test
    void aCommittedStreamsRelationsBecomeTheMainOnes() {
        cache.apply(orders(0, "id"));
        RelationDescriptor streamed = cache.apply(orders(700, "id", "note"));
        cache.commitStream(700);
        assertSame(streamed, cache.get(ORDERS, 0));
        assertSame(streamed, cache.get(ORDERS, 700));
    }

    @Test
    void anAbortedStreamsRelationsAreDropped() {
        RelationDescriptor main = cache.apply(orders(0, "id"));
        cache.apply(orders(700, "id", "note"));
        cache.abortStream(700);
        assertSame(main, cache.get(ORDERS, 0));
        assertSame(main, cache.get(ORDERS, 700));
    }

    @Test
    void aRelationOnlyAStreamDescribedIsUnknownOutsideIt() {
        cache.apply(orders(700, "id"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> cache.get(ORDERS, 0));
        assertTrue(e.getMessage().contains("relation id " + ORDERS), e.getMessage());
        cache.abortStream(700);
        IllegalStateException inStream = assertThrows(IllegalStateException.class, () -> cache.get(ORDERS, 700));
        assertTrue(inStream.getMessage().contains("xid 700"), inStream.getMessage());
    }

    @Test
    void aNewVersionReplacesTheOldAndKeepsItImmutable() {
        RelationDescriptor first = cache.apply(orders(0, "id"));
        RelationDescriptor second = cache.apply(orders(0, "id", "note"));
        assertSame(second, cache.get(ORDERS, 0));
        assertEquals(1, first.columns().size());
    }

    @Test
    void typeMessagesReachTheCatalog() {
        TypeMessage mood = new TypeMessage(0, 90001, "public", "mood");
        cache.apply(mood);
        assertEquals(List.of(mood), announced);
    }

    private static RelationMessage orders(long xid, String... columns) {
        List<RelationColumn> described = new ArrayList<>();
        for (String column : columns) {
            described.add(new RelationColumn(column, PgType.INT4.oid(), -1, column.equals("id")));
        }
        return new RelationMessage(xid, ORDERS, "public", "orders", 'd', described);
    }
}
