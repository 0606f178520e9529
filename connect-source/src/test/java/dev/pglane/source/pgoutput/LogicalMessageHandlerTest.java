package dev.pglane.source.pgoutput;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.Xid;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Message: the output of pg_logical_emit_message. */
class LogicalMessageHandlerTest {

    private final PgOutputParser parser = new PgOutputParser(ProtocolVersion.V4);

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void transactionalMessagesArriveInsideTheirTransaction(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "messages");
        List<PgOutputMessage> messages = fixture.messages();
        List<LogicalDecodingMessage> transactional = fixture.all(LogicalDecodingMessage.class).stream()
                .filter(LogicalDecodingMessage::transactional)
                .toList();

        assertEquals(List.of("transactional payload", "alone in its transaction"), texts(transactional));
        for (LogicalDecodingMessage message : transactional) {
            int at = messages.indexOf(message);
            assertEquals("pglane.test", message.prefix());
            assertEquals(Xid.NONE, message.xid(), "xids are sent only inside streams");
            assertInstanceOf(CommitMessage.class, messages.get(at + 1));
            assertTrue(message.lsn().isValid());
        }
        assertInstanceOf(BeginMessage.class, messages.get(messages.indexOf(transactional.get(1)) - 1));
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void nonTransactionalMessagesArriveOutsideAnyTransaction(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "messages");
        List<PgOutputMessage> messages = fixture.messages();
        List<LogicalDecodingMessage> immediate = fixture.all(LogicalDecodingMessage.class).stream()
                .filter(message -> !message.transactional())
                .toList();

        assertEquals(2, immediate.size());
        assertEquals("pglane.test", immediate.get(0).prefix());
        assertEquals("immediate payload", new String(immediate.get(0).content(), StandardCharsets.UTF_8));
        assertEquals("pglane.binary", immediate.get(1).prefix());
        assertArrayEquals(new byte[] {0x00, (byte) 0xff, 0x10}, immediate.get(1).content());
        assertEquals(messages.size() - 2, messages.indexOf(immediate.get(0)), "after the last Commit");
        assertTrue(immediate.get(1).lsn().compareTo(immediate.get(0).lsn()) > 0);
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void aStreamedMessageCarriesTheTopLevelXid(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "stream-commit");
        LogicalDecodingMessage message = fixture.only(LogicalDecodingMessage.class);

        assertEquals(fixture.all(StreamStartMessage.class).get(0).xid(), message.xid());
        assertEquals("streamed payload", new String(message.content(), StandardCharsets.UTF_8));
    }

    @Test
    void rejectsANegativeContentLength() {
        String failure =
                MessageBytes.tag('M').int8(0).int64(9).string("p").int32(-1).parseFailure(false);
        assertEquals("pgoutput Message 'M' (0x4D): field content length at offset 12: negative length -1", failure);
    }

    @Test
    void rejectsContentShorterThanItsLength() {
        String failure = MessageBytes.tag('M')
                .int8(1)
                .int64(9)
                .string("p")
                .int32(4)
                .raw((byte) 1)
                .parseFailure(false);
        assertTrue(failure.contains("field content at offset 16: needs 4 bytes"), failure);
    }

    @Test
    void comparesByContent() {
        LogicalDecodingMessage a = new LogicalDecodingMessage(0, true, Lsn.valueOf(5), "p", new byte[] {1, 2});
        LogicalDecodingMessage b = new LogicalDecodingMessage(0, true, Lsn.valueOf(5), "p", new byte[] {1, 2});
        LogicalDecodingMessage c = new LogicalDecodingMessage(0, false, Lsn.valueOf(5), "p", new byte[] {1, 2});

        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, c);
        assertFalse(a.toString().contains("[B@"), "content is summarised, not printed as an array reference");
    }

    private static List<String> texts(List<LogicalDecodingMessage> messages) {
        return messages.stream()
                .map(message -> new String(message.content(), StandardCharsets.UTF_8))
                .toList();
    }
}
