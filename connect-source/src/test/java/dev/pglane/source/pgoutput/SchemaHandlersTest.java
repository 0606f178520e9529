package dev.pglane.source.pgoutput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Xid;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Relation and Type. */
class SchemaHandlersTest {

    private static final int INT4 = 23;
    private static final int TEXT = 25;
    private static final int NUMERIC = 1700;

    private final PgOutputParser parser = new PgOutputParser(ProtocolVersion.V4);

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void describesAPrimaryKeyTableInItsSchema(String server) {
        RelationMessage items = PgOutputFixture.load(server, "dml").relation("items");

        assertEquals("shop", items.namespace());
        assertEquals('d', items.replicaIdentity());
        assertEquals(Xid.NONE, items.xid());
        // numeric(10,2): typmod ((10 << 16) | 2) + 4 (VARHDRSZ)
        assertEquals(
                List.of(
                        new RelationColumn("id", INT4, -1, true),
                        new RelationColumn("name", TEXT, -1, false),
                        new RelationColumn("price", NUMERIC, (10 << 16 | 2) + 4, false),
                        new RelationColumn("note", TEXT, -1, false)),
                items.columns());
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void flagsEveryColumnAsKeyUnderReplicaIdentityFull(String server) {
        RelationMessage full = PgOutputFixture.load(server, "identity-full").relation("full_rows");

        assertEquals('f', full.replicaIdentity());
        assertEquals("public", full.namespace());
        assertEquals(
                List.of("id", "name", "qty"),
                full.columns().stream().map(RelationColumn::name).toList());
        assertTrue(full.columns().stream().allMatch(RelationColumn::key));
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void flagsOnlyTheIndexColumnsUnderReplicaIdentityIndex(String server) {
        RelationMessage indexed = PgOutputFixture.load(server, "identity-index").relation("indexed");

        assertEquals('i', indexed.replicaIdentity());
        assertEquals(
                List.of(false, true, false),
                indexed.columns().stream().map(RelationColumn::key).toList());
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void namesUserTypesBeforeTheRelationThatUsesThem(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "types");
        List<PgOutputMessage> messages = fixture.messages();
        List<TypeMessage> types = fixture.all(TypeMessage.class);
        RelationMessage moods = fixture.relation("moods");

        assertEquals(
                List.of("mood", "_mood"),
                types.stream().map(TypeMessage::typeName).toList());
        assertTrue(types.stream().allMatch(type -> type.namespace().equals("public") && type.xid() == Xid.NONE));
        assertTrue(messages.indexOf(types.get(1)) < messages.indexOf(moods));
        assertEquals(types.get(0).typeOid(), moods.columns().get(1).typeOid());
        assertEquals(types.get(1).typeOid(), moods.columns().get(2).typeOid());
        InsertMessage insert = fixture.only(InsertMessage.class);
        assertEquals("happy", insert.newTuple().text(1));
        assertEquals("{sad,ok}", insert.newTuple().text(2));
    }

    @Test
    void rejectsAnUnknownReplicaIdentity() {
        String failure = MessageBytes.tag('R')
                .int32(1)
                .string("s")
                .string("t")
                .int8('x')
                .int16(0)
                .parseFailure(false);
        assertEquals(
                "pgoutput Relation 'R' (0x52): field relreplident at offset 9: unknown replica identity 'x' (0x78)"
                        + " (expected d, n, f or i)",
                failure);
    }

    @Test
    void rejectsANegativeColumnCount() {
        String failure = MessageBytes.tag('R')
                .int32(1)
                .string("s")
                .string("t")
                .int8('d')
                .int16(-1)
                .parseFailure(false);
        assertEquals("pgoutput Relation 'R' (0x52): field ncols at offset 10: negative length -1", failure);
    }

    @Test
    void namesTheColumnWhoseDescriptionIsCutShort() {
        String failure = MessageBytes.tag('R')
                .int32(1)
                .string("s")
                .string("t")
                .int8('d')
                .int16(2)
                .int8(1)
                .string("id")
                .int32(INT4)
                .int32(-1)
                .int8(0)
                .string("name")
                .int32(TEXT)
                .parseFailure(false);
        assertEquals(
                "pgoutput Relation 'R' (0x52): field column[1].atttypmod at offset 34: needs 4 bytes but the message"
                        + " ends after 0 (truncated message)",
                failure);
    }

    @Test
    void readsTheXidOfARelationInsideAStream() {
        RelationMessage relation = (RelationMessage) parser.parse(
                MessageBytes.tag('R')
                        .int32(900)
                        .int32(1)
                        .string("")
                        .string("t")
                        .int8('n')
                        .int16(0)
                        .buffer(),
                true);
        assertEquals(900, relation.xid());
        assertEquals("", relation.namespace(), "pg_catalog is sent as an empty namespace");
        assertEquals('n', relation.replicaIdentity());
    }
}
