package dev.pglane.sink.assemble;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Writes one run file in {@link SpillFraming}'s layout. A record is encoded into a buffer kept for the
 * writer's life before it goes to the file, since its length and checksum precede it; a record that fails
 * to encode leaves nothing in the file.
 */
final class SpillRunWriter implements Closeable {
    private final SpillFormat format;
    private final DataOutputStream out;
    private final PayloadBuffer payload = new PayloadBuffer();
    private final DataOutputStream payloadOut = new DataOutputStream(payload);
    private final CRC32C crc = new CRC32C();
    private long count;
    private long bytes;

    /** Opens {@code file} (created or truncated) and writes the header. */
    SpillRunWriter(Path file, SpillFormat format) throws IOException {
        this.format = format;
        this.out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024));
        try {
            out.writeInt(SpillFraming.MAGIC);
            out.writeInt(SpillFraming.VERSION);
        } catch (IOException e) {
            out.close();
            throw e;
        }
        bytes = SpillFraming.HEADER_BYTES;
    }

    /**
     * Appends one record.
     *
     * @return the bytes it takes in the file
     */
    int write(ChangeRecord record) throws IOException {
        payload.reset();
        format.write(payloadOut, record);
        int length = payload.size();
        out.writeInt(length);
        out.writeInt(SpillFraming.recordChecksum(crc, length, payload.bytes()));
        out.write(payload.bytes(), 0, length);
        count++;
        int framed = SpillFraming.FRAME_HEADER_BYTES + length;
        bytes += framed;
        return framed;
    }

    /**
     * Writes the trailer with the record count and closes the file.
     *
     * @return the trailer's bytes
     */
    int finish() throws IOException {
        out.writeInt(SpillFraming.TRAILER_MARK);
        out.writeLong(count);
        out.writeInt(SpillFraming.trailerChecksum(crc, count));
        out.close();
        bytes += SpillFraming.TRAILER_BYTES;
        return SpillFraming.TRAILER_BYTES;
    }

    /** Records written so far. */
    long count() {
        return count;
    }

    /** Bytes written so far, header and (once finished) trailer included. */
    long bytes() {
        return bytes;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    /** A growable byte buffer without ByteArrayOutputStream's locking, reused for every record. */
    private static final class PayloadBuffer extends OutputStream {
        private byte[] buffer = new byte[4096];
        private int size;

        @Override
        public void write(int b) {
            ensure(1);
            buffer[size++] = (byte) b;
        }

        @Override
        public void write(byte[] source, int offset, int length) {
            ensure(length);
            System.arraycopy(source, offset, buffer, size, length);
            size += length;
        }

        void reset() {
            size = 0;
        }

        int size() {
            return size;
        }

        byte[] bytes() {
            return buffer;
        }

        private void ensure(int more) {
            if (size + more > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
            }
        }
    }
}
