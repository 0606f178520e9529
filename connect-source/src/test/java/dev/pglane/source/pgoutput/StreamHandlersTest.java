package dev.pglane.source.pgoutput;

import static dev.pglane.source.pgoutput.PgOutputParserTest.assertCapturedDuring;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Stream Start, Stop, Commit and Abort over captured streamed transactions. */
class StreamHandlersTest {

    /** Whole-transaction aborts: with and without the abort LSN and time. */
    static Stream<Arguments> aborts() {
        return Stream.of(
                Arguments.of("pg14-v2", "stream-abort"),
                Arguments.of("pg17-v4", "stream-abort"),
                Arguments.of("pg17-v4", "stream-abort-streaming-on"),
                Arguments.of("pg18-v4", "stream-abort"),
                Arguments.of("pg18-v4", "stream-abort-streaming-on"));
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void aCommittedStreamKeepsOneTopLevelXidAcrossItsChunks(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "stream-commit");
        List<StreamStartMessage> starts = fixture.all(StreamStartMessage.class);
        long top = starts.get(0).xid();
        StreamCommitMessage commit = fixture.only(StreamCommitMessage.class);

        assertTrue(starts.size() > 1, "the transaction was streamed in several chunks");
        assertTrue(starts.get(0).firstSegment());
        assertTrue(starts.stream().skip(1).noneMatch(StreamStartMessage::firstSegment));
        assertTrue(starts.stream().allMatch(start -> start.xid() == top));
        assertEquals(starts.size(), fixture.all(StreamStopMessage.class).size());
        assertEquals(top, commit.xid());
        assertEquals(0, commit.flags());
        assertCapturedDuring(fixture, commit.commitTimeMicros());
        assertInstanceOf(
                StreamCommitMessage.class,
                fixture.messages().get(fixture.lines().size() - 1));
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void changesInsideAStreamCarryTheirSubtransactionXid(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "stream-commit");
        long top = fixture.all(StreamStartMessage.class).get(0).xid();
        List<InsertMessage> inserts = fixture.all(InsertMessage.class);
        UpdateMessage update = fixture.only(UpdateMessage.class);
        DeleteMessage delete = fixture.only(DeleteMessage.class);
        TruncateMessage truncate = fixture.only(TruncateMessage.class);

        assertEquals(top, inserts.get(0).xid(), "rows inserted before any savepoint");
        assertEquals("row 1", inserts.get(0).newTuple().text(1));
        assertNotEquals(top, update.xid(), "the update ran in savepoint 'kept'");
        assertEquals("updated", update.newTuple().text(1));
        assertNotEquals(top, delete.xid(), "ROLLBACK TO re-opens the savepoint, so the delete has its own subxid");
        assertEquals(delete.xid(), truncate.xid());
        assertEquals(List.of(fixture.relation("audit").relationId()), truncate.relationIds());
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void aRolledBackSavepointAbortsOnlyItsSubtransaction(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "stream-commit");
        List<PgOutputMessage> messages = fixture.messages();
        long top = fixture.all(StreamStartMessage.class).get(0).xid();
        StreamAbortMessage abort = fixture.only(StreamAbortMessage.class);
        List<InsertMessage> dropped = fixture.all(InsertMessage.class).stream()
                .filter(insert -> insert.newTuple().text(1).startsWith("dropped "))
                .toList();

        assertFalse(dropped.isEmpty(), "the savepoint's rows were streamed before the ROLLBACK TO");
        assertEquals(top, abort.xid());
        assertTrue(dropped.stream().allMatch(insert -> insert.xid() == abort.subxid()));
        assertNotEquals(top, abort.subxid());
        assertTrue(messages.indexOf(abort) > messages.indexOf(dropped.get(dropped.size() - 1)));
        assertAbortInfo(fixture, abort);
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("aborts")
    void aRolledBackTransactionAbortsWithItsOwnXid(String server, String scenario) {
        PgOutputFixture fixture = PgOutputFixture.load(server, scenario);
        long top = fixture.all(StreamStartMessage.class).get(0).xid();
        StreamAbortMessage abort = fixture.only(StreamAbortMessage.class);
        List<InsertMessage> inserts = fixture.all(InsertMessage.class);

        assertFalse(inserts.isEmpty(), "rows were streamed before the ROLLBACK");
        assertTrue(inserts.stream().allMatch(insert -> insert.xid() == top));
        assertTrue(inserts.get(0).newTuple().text(1).startsWith("doomed "));
        assertEquals(new StreamAbortMessage(top, top, abort.abortLsn(), abort.abortTimeMicros()), abort);
        assertInstanceOf(
                StreamAbortMessage.class, fixture.messages().get(fixture.lines().size() - 1));
        assertAbortInfo(fixture, abort);
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void aTransactionCommittedMeanwhileArrivesBetweenTheChunksOfAnOpenStream(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "stream-interleaved");
        List<PgOutputMessage> messages = fixture.messages();
        int bulk = fixture.relation("bulk").relationId();
        InsertMessage between = fixture.all(InsertMessage.class).stream()
                .filter(insert -> insert.relationId() != bulk)
                .findFirst()
                .orElseThrow();
        int firstBulkRow = messages.indexOf(fixture.all(InsertMessage.class).get(0));
        StreamCommitMessage bulkCommit = fixture.all(StreamCommitMessage.class).stream()
                .filter(commit -> commit.xid()
                        == fixture.all(StreamStartMessage.class).get(0).xid())
                .findFirst()
                .orElseThrow();

        assertEquals("committed in between", between.newTuple().text(1));
        assertTrue(firstBulkRow < messages.indexOf(between));
        assertTrue(messages.indexOf(between) < messages.indexOf(bulkCommit));
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void anOriginFollowsTheFirstStreamStartWithoutAnLsn(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "stream-origin");
        List<PgOutputMessage> messages = fixture.messages();
        StreamStartMessage first = fixture.all(StreamStartMessage.class).get(0);
        OriginMessage origin = fixture.all(OriginMessage.class).get(0);

        assertEquals(messages.indexOf(first) + 1, messages.indexOf(origin));
        assertEquals(new OriginMessage(Lsn.INVALID, "pglane_streamed"), origin);
    }

    @Test
    void readsAbortInfoOnlyWhenProtocol4SendsIt() {
        MessageBytes withInfo =
                MessageBytes.tag('A').int32(10).int32(11).int64(0x5000).int64(0);

        StreamAbortMessage parsed =
                (StreamAbortMessage) new PgOutputParser(ProtocolVersion.V4).parse(withInfo.buffer(), false);

        assertEquals(new StreamAbortMessage(10, 11, Lsn.valueOf(0x5000), 0), parsed);
        String v2 = withInfo.parseFailure(ProtocolVersion.V2, false);
        assertEquals(
                "pgoutput Stream Abort 'A' (0x41): field end of message at offset 9: 16 trailing bytes after the last"
                        + " field",
                v2);
    }

    @Test
    void namesAHalfSentAbortInfo() {
        String failure = MessageBytes.tag('A').int32(10).int32(10).int64(0x5000).parseFailure(false);
        assertEquals(
                "pgoutput Stream Abort 'A' (0x41): field abort_ts at offset 17: needs 8 bytes but the message ends"
                        + " after 0 (truncated message)",
                failure);
    }

    @Test
    void rejectsAFirstSegmentFlagOtherThanZeroOrOne() {
        String failure = MessageBytes.tag('S').int32(10).int8(2).parseFailure(ProtocolVersion.V2, false);
        assertEquals(
                "pgoutput Stream Start 'S' (0x53): field first_segment at offset 5: expected 0 or 1, got 2", failure);
    }

    /** Abort LSN and time come with protocol 4 and streaming=parallel only. */
    private static void assertAbortInfo(PgOutputFixture fixture, StreamAbortMessage abort) {
        if (fixture.streaming().equals("parallel")) {
            assertTrue(abort.abortLsn().isValid(), fixture.toString());
            assertCapturedDuring(fixture, abort.abortTimeMicros());
        } else {
            assertEquals(Lsn.INVALID, abort.abortLsn(), fixture.toString());
            assertEquals(0, abort.abortTimeMicros(), fixture.toString());
        }
    }
}
