package dev.pglane.source.reader;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.decode.DecoderLanes;
import dev.pglane.source.decode.LaneActivity;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.offset.AckTracker;
import dev.pglane.source.pgoutput.ProtocolVersion;
import dev.pglane.source.schema.RelationCache;
import dev.pglane.wire.Lsn;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;

/** The reader thread never dies quietly: even an Error from the stream becomes the session's failure. */
@Timeout(30)
class ReplicationReaderFailureTest {

    /** A stream whose first read throws what the test injects. */
    private record FailingStream(Error error) implements PGReplicationStream {
        @Override
        public ByteBuffer read() {
            throw error;
        }

        @Override
        public ByteBuffer readPending() {
            throw error;
        }

        @Override
        public LogSequenceNumber getLastReceiveLSN() {
            return LogSequenceNumber.INVALID_LSN;
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

    @Test
    void anErrorFromTheStreamBecomesTheSessionsFailure() throws InterruptedException {
        FailureSlot failures = new FailureSlot();
        DecoderLanes lanes = new DecoderLanes("test", 1, 4, batch -> List.of(), failures, LaneActivity.NONE);
        ReplicationReader.Settings settings = new ReplicationReader.Settings(
                "127.0.0.1:5432",
                new ServerIdentity("7300000000000000000", 1),
                1,
                Lsn.parse("0/10"),
                false,
                "shop.messages",
                8,
                Duration.ofSeconds(10),
                Duration.ZERO);
        ReplicationReader reader = new ReplicationReader(
                settings,
                new FailingStream(new StackOverflowError("injected into the reader")),
                ProtocolVersion.forServer(170_000),
                new RelationCache(null),
                lanes,
                new AckTracker(),
                () -> 0L,
                failures,
                ReaderActivity.NONE);
        lanes.start();
        Thread thread = new Thread(reader, "reader-under-test");
        thread.start();
        thread.join(TimeUnit.SECONDS.toMillis(10));
        lanes.close(Duration.ofSeconds(1));

        ConnectException failure = assertThrows(ConnectException.class, failures::rethrow);
        assertTrue(failure.getMessage().startsWith("The replication reader failed after LSN"), failure.getMessage());
        assertTrue(failure.getMessage().contains("StackOverflowError: injected into the reader"), failure.getMessage());
    }
}
