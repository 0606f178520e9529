package dev.pglane.sink.assemble;

import static dev.pglane.sink.assemble.Changes.insert;
import static dev.pglane.sink.assemble.Changes.orders;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.envelope.EnvelopeSchemas;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A run file read back whole, or refused naming itself: never other records, never fewer in silence. */
@Timeout(60)
class SpillRunFileTest {
    private static final String COPY = "xid 7 generation 1";
    private static final List<ChangeRecord> RECORDS =
            List.of(insert(7, 1, 1, orders(1), 10), insert(7, 1, 2, orders(1), 11), insert(7, 1, 3, orders(1), 12));

    @TempDir
    Path directory;

    private final SpillFormat format = new SpillFormat(new EnvelopeSchemas());

    @Test
    void aWholeFileComesBackWithItsCountConfirmed() throws IOException {
        Path file = Files.createTempFile(directory, "run", ".spill");
        SpillRunWriter writer = new SpillRunWriter(file, format);
        long framed = 0;
        for (ChangeRecord record : RECORDS) {
            framed += writer.write(record);
        }
        framed += writer.finish();

        assertEquals(RECORDS, readAll(file, RECORDS.size()));
        assertEquals(Files.size(file), writer.bytes(), "what the area counts is the file's size");
        assertEquals(Files.size(file), SpillFraming.HEADER_BYTES + framed);
    }

    @Test
    void everyFlippedByteFailsNamingTheFile() throws IOException {
        Path file = write(RECORDS);
        byte[] whole = Files.readAllBytes(file);
        for (int at = 0; at < whole.length; at++) {
            for (int mask : new int[] {0x01, 0x80, 0xff}) {
                byte[] damaged = whole.clone();
                damaged[at] ^= (byte) mask;
                Files.write(file, damaged);

                assertDamaged(file, RECORDS.size(), "byte " + at + " ^ " + mask);
            }
        }
    }

    @Test
    void everyTruncationFailsNamingTheFile() throws IOException {
        Path file = write(RECORDS);
        byte[] whole = Files.readAllBytes(file);
        for (int length = 0; length < whole.length; length++) {
            Files.write(file, Arrays.copyOf(whole, length));

            String message = assertDamaged(file, RECORDS.size(), "cut to " + length + " bytes");
            assertTrue(message.contains("truncated"), message);
        }
    }

    @Test
    void aFileWithFewerRecordsThanWrittenFails() throws IOException {
        // a consistent file of two records, where the writer counted three
        Path file = write(RECORDS.subList(0, 2));

        String message = assertDamaged(file, 3, "two of three");
        assertTrue(message.contains("it holds 2 records, but 3 were written"), message);
    }

    @Test
    void aLostRecordFailsAtTheTrailer() throws IOException {
        Path file = write(RECORDS);
        List<byte[]> frames = frames(Files.readAllBytes(file));
        // header, the first and the last record, the trailer: the middle record's bytes are gone
        Files.write(file, concat(frames.get(0), frames.get(1), frames.get(3), frames.get(4)));

        String message = assertDamaged(file, 3, "middle record lost");
        assertTrue(message.contains("it holds 2 records, but 3 were written"), message);
    }

    @Test
    void aRepeatedRecordFails() throws IOException {
        Path file = write(RECORDS);
        List<byte[]> frames = frames(Files.readAllBytes(file));
        Files.write(
                file, concat(frames.get(0), frames.get(1), frames.get(2), frames.get(2), frames.get(3), frames.get(4)));

        String message = assertDamaged(file, 3, "second record twice");
        assertTrue(message.contains("more than the 3 records written"), message);
    }

    @Test
    void aTrailerCountingOtherThanTheRecordsFails() throws IOException {
        Path file = write(RECORDS);
        List<byte[]> frames = frames(Files.readAllBytes(file));
        ByteBuffer trailer = ByteBuffer.allocate(SpillFraming.TRAILER_BYTES)
                .putInt(SpillFraming.TRAILER_MARK)
                .putLong(4)
                .putInt(SpillFraming.trailerChecksum(new CRC32C(), 4));
        Files.write(file, concat(frames.get(0), frames.get(1), frames.get(2), frames.get(3), trailer.array()));

        String message = assertDamaged(file, 3, "trailer of 4");
        assertTrue(message.contains("its trailer counts 4 records, but it holds 3"), message);
    }

    @Test
    void bytesAfterTheTrailerFail() throws IOException {
        Path file = write(RECORDS);
        Files.write(file, concat(Files.readAllBytes(file), new byte[] {0}));

        String message = assertDamaged(file, 3, "one byte more");
        assertTrue(message.contains("1 bytes follow its trailer"), message);
    }

    @Test
    void aDamagedTailFailsOnlyWhenTheReaderGetsThere() throws IOException {
        Path file = write(RECORDS);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - SpillFraming.TRAILER_BYTES - 1] ^= 1; // the last record's last byte
        Files.write(file, bytes);

        try (SpillRunReader reader = new SpillRunReader(file, COPY, format, 3)) {
            assertEquals(RECORDS.get(0), reader.next());
            assertEquals(RECORDS.get(1), reader.next());
            ConnectException e = assertThrows(ConnectException.class, reader::next);
            assertTrue(e.getMessage().contains("record 3 of 3 at byte"), e.getMessage());
            assertTrue(e.getMessage().contains("fails its checksum"), e.getMessage());
        }
    }

    private Path write(List<ChangeRecord> records) throws IOException {
        Path file = Files.createTempFile(directory, "run", ".spill");
        SpillRunWriter writer = new SpillRunWriter(file, format);
        for (ChangeRecord record : records) {
            writer.write(record);
        }
        writer.finish();
        return file;
    }

    private List<ChangeRecord> readAll(Path file, long expected) throws IOException {
        List<ChangeRecord> back = new ArrayList<>();
        try (SpillRunReader reader = new SpillRunReader(file, COPY, format, expected)) {
            for (ChangeRecord record = reader.next(); record != null; record = reader.next()) {
                back.add(record);
            }
        }
        return back;
    }

    /** Reads the file to its end and expects it refused, with a message naming the file and the copy. */
    private String assertDamaged(Path file, long expected, String what) {
        ConnectException e = assertThrows(ConnectException.class, () -> readAll(file, expected), what);
        String message = e.getMessage();
        assertTrue(message.startsWith("Spill file " + file + " of " + COPY + " is damaged: "), what + ": " + message);
        return message;
    }

    /** The header, each record's frame and the trailer of a well-formed file, as separate byte arrays. */
    private static List<byte[]> frames(byte[] file) {
        List<byte[]> parts = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.wrap(file);
        parts.add(take(buffer, SpillFraming.HEADER_BYTES));
        while (buffer.remaining() > SpillFraming.TRAILER_BYTES) {
            int length = buffer.getInt(buffer.position());
            parts.add(take(buffer, SpillFraming.FRAME_HEADER_BYTES + length));
        }
        parts.add(take(buffer, SpillFraming.TRAILER_BYTES));
        return parts;
    }

    private static byte[] take(ByteBuffer buffer, int length) {
        byte[] part = new byte[length];
        buffer.get(part);
        return part;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
