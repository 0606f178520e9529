package dev.pglane.source.pgoutput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.Lsn;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Begin, Commit and Origin. */
class TransactionHandlersTest {

    private final PgOutputParser parser = new PgOutputParser(ProtocolVersion.V4);

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void dmlTransactionsAreFramedWithTheirXidsInCommitOrder(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "dml");
        List<BeginMessage> begins = fixture.all(BeginMessage.class);
        List<CommitMessage> commits = fixture.all(CommitMessage.class);

        assertEquals(3, begins.size());
        assertEquals(3, commits.size());
        for (int i = 1; i < begins.size(); i++) {
            assertEquals(
                    begins.get(i - 1).xid() + 1, begins.get(i).xid(), "autocommit statements take consecutive xids");
            assertTrue(commits.get(i).commitLsn().compareTo(commits.get(i - 1).endLsn()) > 0, "commit order");
        }
    }

    @ParameterizedTest
    @MethodSource(PgOutputFixture.SERVERS_SOURCE)
    void anOriginFollowsBeginWithTheOriginsNameLsnAndCommitTime(String server) {
        PgOutputFixture fixture = PgOutputFixture.load(server, "origin");
        List<PgOutputMessage> messages = fixture.messages();
        OriginMessage origin = fixture.only(OriginMessage.class);
        int at = messages.indexOf(origin);
        BeginMessage begin = assertInstanceOf(BeginMessage.class, messages.get(at - 1));

        assertEquals("pglane_upstream", origin.name());
        assertEquals(Lsn.parse("0/1A2B3C4D"), origin.originCommitLsn());
        // Under an origin, decoding reports the origin's commit time (pg_replication_origin_xact_setup).
        long originTime = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse("2024-05-01T12:00:00Z"));
        assertEquals(originTime, begin.commitTimeMicros());
        InsertMessage insert = assertInstanceOf(InsertMessage.class, messages.get(at + 2));
        assertEquals("from upstream", insert.newTuple().text(1));
    }

    @Test
    void convertsPostgresTimestampsToUnixMicros() {
        // 0 on the wire is PostgreSQL's epoch, 2000-01-01T00:00:00Z.
        BeginMessage begin = (BeginMessage)
                parser.parse(MessageBytes.tag('B').int64(0x10).int64(0).int32(1).buffer(), false);
        assertEquals(
                Instant.parse("2000-01-01T00:00:00Z"), Instant.EPOCH.plus(begin.commitTimeMicros(), ChronoUnit.MICROS));
    }

    @Test
    void rejectsABeginWithoutCommitLsn() {
        String failure = MessageBytes.tag('B').int64(0).int64(0).int32(1).parseFailure(false);
        assertEquals(
                "pgoutput Begin 'B' (0x42): field final_lsn at offset 1: is 0/0, but a Begin must name its commit"
                        + " record",
                failure);
    }

    @Test
    void rejectsCommitFlagsNoServerSends() {
        String failure =
                MessageBytes.tag('C').int8(1).int64(2).int64(3).int64(4).parseFailure(false);
        assertEquals(
                "pgoutput Commit 'C' (0x43): field flags at offset 1: unrecognized flags 1 (no PostgreSQL version"
                        + " sets any)",
                failure);
    }

    @Test
    void rejectsAnOriginNameWithoutItsTerminator() {
        String failure =
                MessageBytes.tag('O').int64(5).raw((byte) 'a', (byte) 'b').parseFailure(false);
        assertEquals(
                "pgoutput Origin 'O' (0x4F): field name at offset 9: string has no terminating NUL byte before the end"
                        + " of the message",
                failure);
    }
}
