package dev.pglane.source.pgoutput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Xid;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The parser over every captured fixture, and its dispatch-level errors. */
class PgOutputParserTest {

    private final PgOutputParser parser = new PgOutputParser(ProtocolVersion.V4);

    static Stream<Arguments> everyFixture() {
        List<Arguments> fixtures = new ArrayList<>();
        for (String server : PgOutputFixture.SERVERS) {
            for (String scenario : PgOutputFixture.SCENARIOS) {
                fixtures.add(Arguments.of(server, scenario));
            }
            if (!server.endsWith("v2")) {
                fixtures.add(Arguments.of(server, "stream-abort-streaming-on"));
            }
        }
        return fixtures.stream();
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("everyFixture")
    void everyCapturedMessageParsesAndCarriesAnXidExactlyInsideStreams(String server, String scenario) {
        PgOutputFixture fixture = PgOutputFixture.load(server, scenario);
        List<PgOutputMessage> messages = fixture.messages();
        assertEquals(fixture.lines().size(), messages.size());
        assertTrue(messages.size() > 2, fixture + " is too short to be a capture");
        boolean insideStream = false;
        for (PgOutputMessage message : messages) {
            if (message instanceof StreamStartMessage) {
                insideStream = true;
            } else if (message instanceof StreamStopMessage) {
                insideStream = false;
            }
            long xid = changeXid(message);
            if (xid >= 0) {
                // Non-transactional messages are sent at once, outside any chunk, so they never carry an xid.
                assertEquals(insideStream, xid != Xid.NONE, fixture + ": " + message);
            }
        }
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("everyFixture")
    void everyCommitClosesItsBeginAtTheSameLsnAndTime(String server, String scenario) {
        PgOutputFixture fixture = PgOutputFixture.load(server, scenario);
        BeginMessage open = null;
        for (PgOutputMessage message : fixture.messages()) {
            if (message instanceof BeginMessage begin) {
                assertNull(open, fixture + ": Begin inside a transaction");
                assertTrue(begin.finalLsn().isValid());
                open = begin;
            } else if (message instanceof CommitMessage commit) {
                assertEquals(open.finalLsn(), commit.commitLsn(), fixture.toString());
                assertEquals(open.commitTimeMicros(), commit.commitTimeMicros(), fixture.toString());
                assertTrue(commit.endLsn().compareTo(commit.commitLsn()) > 0, fixture.toString());
                assertEquals(0, commit.flags());
                if (!scenario.equals("origin")) {
                    assertCapturedDuring(fixture, commit.commitTimeMicros());
                }
                open = null;
            } else if (message instanceof StreamCommitMessage commit) {
                assertTrue(commit.endLsn().compareTo(commit.commitLsn()) > 0, fixture.toString());
                assertCapturedDuring(fixture, commit.commitTimeMicros());
            }
        }
        assertNull(open, fixture + " ends inside a transaction");
    }

    @Test
    void namesAnUnknownTagByItsCharAndHexValue() {
        String failure = MessageBytes.tag('z').int32(1).parseFailure(false);
        assertEquals(
                "pgoutput unknown tag 'z' (0x7A): field tag at offset 0: not a pgoutput message (protocol 4)", failure);
    }

    @Test
    void namesAnUnprintableTagByItsHexValue() {
        String failure = MessageBytes.tag('\u0001').parseFailure(false);
        assertTrue(failure.startsWith("pgoutput unknown tag (0x01): field tag at offset 0"), failure);
    }

    @ParameterizedTest
    @ValueSource(chars = {'b', 'P', 'K', 'r', 'p'})
    void rejectsTwoPhaseMessagesInsteadOfSkippingThem(char tag) {
        // A plausible Prepare-style body: flags, two LSNs, a timestamp, an xid and a gid.
        String failure = MessageBytes.tag(tag)
                .int8(0)
                .int64(0x1000)
                .int64(0x1100)
                .int64(0)
                .int32(700)
                .string("pg_gid_1_700")
                .parseFailure(false);
        assertTrue(failure.contains("'" + tag + "'"), failure);
        assertTrue(failure.contains("two-phase messages are not enabled"), failure);
        assertTrue(failure.contains("offset 0"), failure);
    }

    @Test
    void namesTheTwoPhaseMessageType() {
        String failure = MessageBytes.tag('P').parseFailure(false);
        assertTrue(failure.startsWith("pgoutput Prepare 'P' (0x50): field tag at offset 0"));
    }

    @Test
    void rejectsAnEmptyMessage() {
        PgOutputFormatException failure =
                assertThrows(PgOutputFormatException.class, () -> parser.parse(ByteBuffer.allocate(0), false));
        assertEquals("empty pgoutput message: no tag byte at offset 0", failure.getMessage());
    }

    @Test
    void rejectsTrailingBytesAfterTheLastField() {
        String failure = MessageBytes.tag('E').int8(0).int8(0).parseFailure(false);
        assertEquals(
                "pgoutput Stream Stop 'E' (0x45): field end of message at offset 1: 2 trailing bytes after the last"
                        + " field",
                failure);
    }

    @Test
    void namesTheFieldAndOffsetOfATruncatedMessage() {
        String failure = MessageBytes.tag('C').int8(0).int64(0x2000).int32(0).parseFailure(false);
        assertEquals(
                "pgoutput Commit 'C' (0x43): field end_lsn at offset 10: needs 8 bytes but the message ends after 4"
                        + " (truncated message)",
                failure);
    }

    @Test
    void leavesTheCallersBufferWhereItWas() {
        ByteBuffer message = MessageBytes.tag('E').buffer();
        parser.parse(message, false);
        assertEquals(0, message.position());
        assertEquals(1, message.remaining());
    }

    @Test
    void readsFromASliceOfALargerArrayAsPgjdbcHandsIt() {
        // pgjdbc returns the XLogData payload as a slice after the 25-byte 'w' header of the CopyData array.
        byte[] insert = MessageBytes.tag('I')
                .int32(16385)
                .int8('N')
                .int16(1)
                .textColumn("päyload")
                .bytes();
        byte[] copyData = new byte[25 + insert.length];
        System.arraycopy(insert, 0, copyData, 25, insert.length);
        ByteBuffer slice = ByteBuffer.wrap(copyData).position(25).slice();

        InsertMessage parsed = assertInstanceOf(InsertMessage.class, parser.parse(slice, false));

        assertEquals("päyload", parsed.newTuple().text(0));
    }

    @Test
    void readsDirectAndReadOnlyBuffersByCopyingThem() {
        byte[] insert = MessageBytes.tag('I')
                .int32(7)
                .int8('N')
                .int16(1)
                .textColumn("x")
                .bytes();
        ByteBuffer direct = ByteBuffer.allocateDirect(insert.length).put(insert).flip();
        ByteBuffer readOnly = ByteBuffer.wrap(insert).asReadOnlyBuffer();

        for (ByteBuffer buffer : List.of(direct, readOnly)) {
            InsertMessage parsed = assertInstanceOf(InsertMessage.class, parser.parse(buffer, false));
            assertEquals("x", parsed.newTuple().text(0));
            assertEquals(0, buffer.position());
        }
    }

    @Test
    void readsXidsAsUnsigned() {
        ByteBuffer begin =
                MessageBytes.tag('B').int64(0x3000).int64(0).int32(0xFFFFFFFE).buffer();
        BeginMessage parsed = assertInstanceOf(BeginMessage.class, parser.parse(begin, false));
        assertEquals(4_294_967_294L, parsed.xid());
        assertNotEquals(Xid.NONE, parsed.xid());
    }

    /** The xid a change-like message carries, or -1 for messages whose xid field means something else. */
    private static long changeXid(PgOutputMessage message) {
        if (message instanceof RelationMessage relation) {
            return relation.xid();
        } else if (message instanceof TypeMessage type) {
            return type.xid();
        } else if (message instanceof InsertMessage insert) {
            return insert.xid();
        } else if (message instanceof UpdateMessage update) {
            return update.xid();
        } else if (message instanceof DeleteMessage delete) {
            return delete.xid();
        } else if (message instanceof TruncateMessage truncate) {
            return truncate.xid();
        } else if (message instanceof LogicalDecodingMessage logical && logical.transactional()) {
            return logical.xid();
        }
        return -1;
    }

    static void assertCapturedDuring(PgOutputFixture fixture, long unixMicros) {
        assertTrue(
                unixMicros >= fixture.capturedFromMicros() && unixMicros <= fixture.capturedToMicros(),
                fixture + ": " + unixMicros + " is outside the capture window [" + fixture.capturedFromMicros() + ", "
                        + fixture.capturedToMicros() + "]");
    }
}
