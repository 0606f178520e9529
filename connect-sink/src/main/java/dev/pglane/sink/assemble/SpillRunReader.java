package dev.pglane.sink.assemble;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Reads one run file back and checks it against {@link SpillFraming}'s layout and against the count its
 * writer kept: a damaged record, a cut file, a missing or extra record or bytes after the trailer fail with
 * a {@link ConnectException} naming the file and the copy, before any wrong record is returned. Records are
 * returned only one by one, so a damaged tail fails the iteration when it gets there.
 */
final class SpillRunReader implements Closeable {
    private static final String RESTART = ". Restart the task: it deletes its spill files and reads the"
            + " transaction from Kafka again, since offsets never pass a transaction not applied";

    private final Path file;
    private final String copy;
    private final SpillFormat format;
    private final long expected;
    private final long size;
    private final DataInputStream in;
    private final byte[] header = new byte[SpillFraming.TRAILER_BYTES];
    private final PayloadInput payloadInput = new PayloadInput();
    private final DataInputStream payloadIn = new DataInputStream(payloadInput);
    private final CRC32C crc = new CRC32C();
    private byte[] payload = new byte[4096];
    private long position;
    private long read;
    private boolean finished;

    /**
     * Opens {@code file} and checks its header.
     *
     * @param copy the copy the file belongs to, for messages
     * @param expected records its writer wrote
     */
    SpillRunReader(Path file, String copy, SpillFormat format, long expected) throws IOException {
        this.file = file;
        this.copy = copy;
        this.format = format;
        this.expected = expected;
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            this.size = channel.size();
            this.in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel), 64 * 1024));
            readHeader();
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * The next record, or null after the last one once the trailer confirmed the count.
     *
     * @throws ConnectException if the file is damaged
     */
    ChangeRecord next() throws IOException {
        if (finished) {
            return null;
        }
        long left = size - position;
        if (left < 4) {
            throw damaged("it ends after " + read + " of " + expected + " records without its trailer (truncated)");
        }
        in.readFully(header, 0, 4);
        int length = SpillFraming.intAt(header, 0);
        if (length == SpillFraming.TRAILER_MARK) {
            readTrailer();
            return null;
        }
        if (read == expected) {
            throw damaged("it holds more than the " + expected + " records written");
        }
        long room = left - SpillFraming.FRAME_HEADER_BYTES;
        if (length < 0 || length > room) {
            throw damaged(record() + " at byte " + position + " claims " + length + " bytes, but " + Math.max(room, 0)
                    + " follow: the file is truncated or the length is damaged");
        }
        in.readFully(header, 4, 4);
        int stored = SpillFraming.intAt(header, 4);
        if (payload.length < length) {
            payload = new byte[Math.max(length, payload.length * 2)];
        }
        in.readFully(payload, 0, length);
        if (SpillFraming.recordChecksum(crc, length, payload) != stored) {
            throw damaged(record() + " at byte " + position + " fails its checksum");
        }
        ChangeRecord record = decode(length);
        read++;
        position += SpillFraming.FRAME_HEADER_BYTES + length;
        return record;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private void readHeader() throws IOException {
        if (size < SpillFraming.HEADER_BYTES) {
            throw damaged("it has " + size + " bytes, fewer than its header (truncated)");
        }
        in.readFully(header, 0, SpillFraming.HEADER_BYTES);
        int magic = SpillFraming.intAt(header, 0);
        int version = SpillFraming.intAt(header, 4);
        if (magic != SpillFraming.MAGIC || version != SpillFraming.VERSION) {
            throw damaged("its header is not that of a pglane spill file, version " + SpillFraming.VERSION);
        }
        position = SpillFraming.HEADER_BYTES;
    }

    private void readTrailer() throws IOException {
        if (size - position < SpillFraming.TRAILER_BYTES) {
            throw damaged("its trailer at byte " + position + " is cut short (truncated)");
        }
        in.readFully(header, 4, SpillFraming.TRAILER_BYTES - 4);
        long count = SpillFraming.longAt(header, 4);
        if (SpillFraming.trailerChecksum(crc, count) != SpillFraming.intAt(header, 12)) {
            throw damaged("its trailer at byte " + position + " fails its checksum");
        }
        if (read != expected) {
            throw damaged("it holds " + read + " records, but " + expected + " were written");
        }
        if (count != read) {
            throw damaged("its trailer counts " + count + " records, but it holds " + read);
        }
        position += SpillFraming.TRAILER_BYTES;
        if (position != size) {
            throw damaged((size - position) + " bytes follow its trailer");
        }
        finished = true;
    }

    private ChangeRecord decode(int length) {
        payloadInput.reset(payload, length);
        ChangeRecord record;
        try {
            record = format.read(payloadIn);
        } catch (EOFException e) {
            throw damaged(record() + " at byte " + position + " does not decode within its " + length + " bytes");
        } catch (IOException | RuntimeException e) {
            throw damaged(record() + " at byte " + position + " does not decode: " + e, e);
        }
        if (payloadInput.remaining() != 0) {
            throw damaged(record() + " at byte " + position + " decodes to " + (length - payloadInput.remaining())
                    + " of its " + length + " bytes");
        }
        return record;
    }

    private String record() {
        return "record " + (read + 1) + " of " + expected;
    }

    private ConnectException damaged(String what) {
        return damaged(what, null);
    }

    private ConnectException damaged(String what, Exception cause) {
        return new ConnectException("Spill file " + file + " of " + copy + " is damaged: " + what + RESTART, cause);
    }

    /** The payload of one record as a stream, over the reader's buffer. */
    private static final class PayloadInput extends InputStream {
        private byte[] bytes;
        private int position;
        private int limit;

        void reset(byte[] bytes, int limit) {
            this.bytes = bytes;
            this.position = 0;
            this.limit = limit;
        }

        int remaining() {
            return limit - position;
        }

        @Override
        public int read() {
            return position < limit ? bytes[position++] & 0xff : -1;
        }

        @Override
        public int read(byte[] target, int offset, int length) {
            if (length == 0) {
                return 0;
            }
            if (position >= limit) {
                return -1;
            }
            int n = Math.min(length, limit - position);
            System.arraycopy(bytes, position, target, offset, n);
            position += n;
            return n;
        }
    }
}
