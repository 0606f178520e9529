package dev.pglane.source.pgoutput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Insert, Update, Delete and Truncate. */
class RowChangeHandlersTest {

    private final PgOutputParser parser = new PgOutputParser(ProtocolVersion.V4);

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void insertsCarryTextNullsAndUnicode(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "dml");
        int items = fixture.relation("items").relationId();
        List<InsertMessage> inserts = fixture.all(InsertMessage.class);

        assertEquals(2, inserts.size());
        assertTrue(inserts.stream().allMatch(insert -> insert.relationId() == items));
        assertEquals(List.of("1", "apple", "1.50", "n"), values(inserts.get(0).newTuple()));
        assertEquals(
                List.of("2", "pear", "n", "ripe ünïcode ✓"),
                values(inserts.get(1).newTuple()));
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void defaultIdentitySendsTheOldKeyOnlyWhenTheKeyChanges(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "dml");
        List<UpdateMessage> updates = fixture.all(UpdateMessage.class);
        DeleteMessage delete = fixture.only(DeleteMessage.class);

        UpdateMessage price = updates.get(0);
        assertEquals('\0', price.oldTupleKind());
        assertNull(price.oldTuple());
        assertEquals(List.of("1", "apple", "1.75", "n"), values(price.newTuple()));
        UpdateMessage keyChange = updates.get(1);
        assertEquals('K', keyChange.oldTupleKind());
        assertEquals(List.of("2", "n", "n", "n"), values(keyChange.oldTuple()));
        assertEquals(List.of("10", "pear", "n", "ripe ünïcode ✓"), values(keyChange.newTuple()));
        assertEquals('K', delete.oldTupleKind());
        assertEquals(List.of("1", "n", "n", "n"), values(delete.oldTuple()));
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void fullIdentitySendsTheWholeOldRow(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "identity-full");
        UpdateMessage update = fixture.only(UpdateMessage.class);
        DeleteMessage delete = fixture.only(DeleteMessage.class);

        assertEquals('O', update.oldTupleKind());
        assertEquals(List.of("1", "one", "5"), values(update.oldTuple()));
        assertEquals(List.of("1", "one", "6"), values(update.newTuple()));
        assertEquals('O', delete.oldTupleKind());
        assertEquals(List.of("2", "two", "n"), values(delete.oldTuple()));
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void indexIdentitySendsTheIndexColumnsAsTheOldKey(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "identity-index");
        List<UpdateMessage> updates = fixture.all(UpdateMessage.class);
        DeleteMessage delete = fixture.only(DeleteMessage.class);

        assertNull(updates.get(0).oldTuple(), "a label change leaves the index key alone");
        assertEquals('K', updates.get(1).oldTupleKind());
        assertEquals(List.of("n", "A-1", "n"), values(updates.get(1).oldTuple()));
        assertEquals(List.of("1", "A-2", "still first"), values(updates.get(1).newTuple()));
        assertEquals(List.of("n", "A-2", "n"), values(delete.oldTuple()));
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void anUnchangedToastValueIsSentAsUnchangedAndAChangedOneInFull(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "toast");
        InsertMessage insert = fixture.only(InsertMessage.class);
        List<UpdateMessage> updates = fixture.all(UpdateMessage.class);

        assertEquals("0123456789abcdef".repeat(200), insert.newTuple().text(2));
        assertEquals(List.of("1", "final", "u"), values(updates.get(0).newTuple()));
        assertEquals("fedcba9876543210".repeat(150), updates.get(1).newTuple().text(2));
        assertEquals('t', updates.get(1).newTuple().kind(2));
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void truncateCarriesItsRelationsAndOptions(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "truncate");
        int parents = fixture.relation("parents").relationId();
        int children = fixture.relation("children").relationId();
        int audit = fixture.relation("audit").relationId();
        List<TruncateMessage> truncates = fixture.all(TruncateMessage.class);

        assertEquals(4, truncates.size());
        assertEquals(new TruncateMessage(0, List.of(parents, children), true, true), truncates.get(0));
        assertEquals(new TruncateMessage(0, List.of(audit), false, true), truncates.get(1));
        assertEquals(new TruncateMessage(0, List.of(audit), true, false), truncates.get(2));
        assertEquals(new TruncateMessage(0, List.of(audit), false, false), truncates.get(3));
    }

    @Test
    void rejectsAnInsertWhoseTupleIsNotNew() {
        String failure = MessageBytes.tag('I').int32(1).int8('K').int16(0).parseFailure(false);
        assertEquals(
                "pgoutput Insert 'I' (0x49): field new tuple kind at offset 5: unexpected tuple kind 'K' (0x4B)"
                        + " (expected one of N)",
                failure);
    }

    @Test
    void rejectsAnUpdateWithAnUnknownTupleKind() {
        String failure = MessageBytes.tag('U').int32(900).int32(1).int8('X').parseFailure(true);
        assertEquals(
                "pgoutput Update 'U' (0x55): field tuple kind at offset 9: unexpected tuple kind 'X' (0x58)"
                        + " (expected one of K, O, N)",
                failure);
    }

    @Test
    void rejectsAnUpdateWhoseOldTupleIsNotFollowedByTheNewOne() {
        String failure = MessageBytes.tag('U')
                .int32(1)
                .int8('O')
                .int16(1)
                .textColumn("a")
                .int8('O')
                .int16(1)
                .textColumn("b")
                .parseFailure(false);
        assertTrue(failure.contains("field new tuple kind at offset 14: unexpected tuple kind 'O'"), failure);
    }

    @Test
    void rejectsADeleteWithoutOldTuple() {
        String failure = MessageBytes.tag('D').int32(1).int8('N').int16(0).parseFailure(false);
        assertTrue(failure.endsWith("(expected one of K, O)"), failure);
    }

    @Test
    void readsTheSubtransactionXidOfAStreamedDelete() {
        DeleteMessage delete = (DeleteMessage) parser.parse(
                MessageBytes.tag('D')
                        .int32(901)
                        .int32(5)
                        .int8('K')
                        .int16(1)
                        .textColumn("7")
                        .buffer(),
                true);
        assertEquals(901, delete.xid());
        assertEquals(5, delete.relationId());
        assertEquals("7", delete.oldTuple().text(0));
    }

    @Test
    void rejectsANegativeTruncateRelationCount() {
        String failure = MessageBytes.tag('T').int32(-2).int8(0).parseFailure(false);
        assertEquals("pgoutput Truncate 'T' (0x54): field nrels at offset 1: negative length -2", failure);
    }

    @Test
    void rejectsATruncateWithFewerRelationsThanItCounts() {
        String failure = MessageBytes.tag('T').int32(1_000_000).int8(1).int32(5).parseFailure(false);
        assertTrue(failure.contains("field relid[1] at offset 10"), failure);
        assertFalse(failure.contains("relid[0]"));
    }

    /** Each column's text, or its kind letter when it has none. */
    static List<String> values(TupleData tuple) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < tuple.size(); i++) {
            values.add(tuple.kind(i) == 't' ? tuple.text(i) : String.valueOf(tuple.kind(i)));
        }
        return values;
    }
}
