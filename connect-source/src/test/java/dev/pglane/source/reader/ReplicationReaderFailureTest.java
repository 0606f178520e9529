package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.decode.DecoderLanes;
import dev.pglane.source.decode.LaneActivity;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.offset.AckTracker;
import dev.pglane.source.pgoutput.ProtocolVersion;
import dev.pglane.source.schema.RelationCache;
import dev.pglane.source.seal.MessageSeal;
import dev.pglane.source.snapshot.SnapshotStream;
import dev.pglane.wire.Lsn;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;

/**
 * The reader thread never dies quietly, and never waits quietly on a stream the server stopped serving: an Error from
 * the stream, or a silent stream whose slot another walsender or none holds, becomes the session's failure.
 */
@Timeout(30)
class ReplicationReaderFailureTest {

    /** A stream whose every read answers what {@code answer} gives: nothing (an idle server), or a throw. */
    private record ScriptedStream(Supplier<ByteBuffer> answer) implements PGReplicationStream {
        /** Nothing to say, like an idle server's stream (whose keepalives pgjdbc would swallow anyway). */
        static ScriptedStream quiet() {
            return new ScriptedStream(() -> null);
        }

        static ScriptedStream throwing(Error error) {
            return new ScriptedStream(() -> {
                throw error;
            });
        }

        @Override
        public ByteBuffer read() {
            return answer.get();
        }

        @Override
        public ByteBuffer readPending() {
            return answer.get();
        }

        @Override
        public LogSequenceNumber getLastReceiveLSN() {
            return LogSequenceNumber.valueOf(0x10);
        }

        @Override
        public LogSequenceNumber getLastFlushedLSN() {
            return LogSequenceNumber.INVALID_LSN;
        }

        @Override
        public LogSequenceNumber getLastAppliedLSN() {
            return LogSequenceNumber.INVALID_LSN;
        }

        @Override
        public void setFlushedLSN(LogSequenceNumber lsn) {}

        @Override
        public void setAppliedLSN(LogSequenceNumber lsn) {}

        @Override
        public void forceUpdateStatus() {}

        @Override
        public boolean isClosed() {
            return false;
        }

        @Override
        public void close() {}
    }

    /** Runs a reader on {@code stream} until it stops by itself or 10 s pass, and returns its failure slot. */
    private static FailureSlot run(PGReplicationStream stream, Duration statusInterval, StreamLiveness liveness)
            throws InterruptedException {
        FailureSlot failures = new FailureSlot();
        DecoderLanes lanes = new DecoderLanes("test", 1, 4, batch -> List.of(), failures, LaneActivity.NONE);
        ReplicationReader.Settings settings = new ReplicationReader.Settings(
                "127.0.0.1:5432",
                new ServerIdentity("7300000000000000000", 1),
                ProtocolVersion.forServer(170_000),
                1,
                Lsn.parse("0/10"),
                false,
                MessageFilter.NONE,
                OriginFilter.ANY,
                "shop.messages",
                8,
                statusInterval,
                Duration.ZERO,
                MessageSeal.configured("shop", "a key of sixteen characters"));
        ReplicationReader reader = new ReplicationReader(
                settings,
                stream,
                new RelationCache(null),
                lanes,
                new AckTracker(),
                () -> 0L,
                failures,
                ReaderActivity.NONE,
                liveness,
                new SnapshotStream(MessageSeal.configured("shop", "a key of sixteen characters"), 1, null));
        lanes.start();
        Thread thread = new Thread(reader, "reader-under-test");
        thread.start();
        thread.join(TimeUnit.SECONDS.toMillis(10));
        reader.stop();
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(5));
        lanes.close(Duration.ofSeconds(1));
        return failures;
    }

    @Test
    void aSilentStreamTheServerNoLongerServesIsALostConnection() throws InterruptedException {
        AtomicInteger asked = new AtomicInteger();
        FailureSlot failures = run(ScriptedStream.quiet(), Duration.ofMillis(20), () -> {
            return asked.incrementAndGet() < 3 ? null : "no walsender holds slot pglane";
        });
        RetriableException lost = assertThrows(RetriableException.class, failures::rethrow);
        assertTrue(
                lost.getMessage().startsWith("Lost the replication connection to 127.0.0.1:5432"), lost.getMessage());
        assertTrue(
                lost.getMessage()
                        .contains("and the server no longer serves this stream: no walsender holds slot pglane"),
                lost.getMessage());
        assertTrue(asked.get() == 3, "asked after each quiet spell until it failed: " + asked.get());
    }

    @Test
    void aServerThatCannotBeAskedIsALostConnectionToo() throws InterruptedException {
        FailureSlot failures = run(ScriptedStream.quiet(), Duration.ofMillis(20), () -> {
            throw new java.sql.SQLException("Read timed out", "08006");
        });
        RetriableException lost = assertThrows(RetriableException.class, failures::rethrow);
        assertTrue(
                lost.getMessage().contains("the server cannot be asked about the stream: Read timed out"),
                lost.getMessage());
    }

    @Test
    void anErrorFromTheStreamBecomesTheSessionsFailure() throws InterruptedException {
        FailureSlot failures = run(
                ScriptedStream.throwing(new StackOverflowError("injected into the reader")),
                Duration.ofSeconds(10),
                StreamLiveness.ASSUMED);

        ConnectException failure = assertThrows(ConnectException.class, failures::rethrow);
        assertTrue(failure.getMessage().startsWith("The replication reader failed after LSN"), failure.getMessage());
        assertTrue(failure.getMessage().contains("StackOverflowError: injected into the reader"), failure.getMessage());
    }
}
