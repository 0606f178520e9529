package dev.pglane.sink.assemble;

import java.util.zip.CRC32C;

/**
 * The layout of a spill run file, which {@link SpillRunWriter} writes and {@link SpillRunReader} checks:
 *
 * <pre>
 * header    int magic "PGLS", int version
 * record    int length, int CRC32C of length and payload, payload ({@link SpillFormat})   … once per record
 * trailer   int -1, long record count, int CRC32C of the -1 and the count
 * </pre>
 *
 * <p>Each record carries its own checksum, so a damaged byte is caught in the record it hit, before the
 * record is decoded. The length is part of the checksum and is bounded by the bytes left in the file, so a
 * damaged length can neither pass nor make the reader allocate what the file does not hold. The trailer is
 * written only once the run is complete: a file cut anywhere (a torn write, a full disk, a truncation) lacks
 * it, and its count must equal both the records the reader found and the count the writer kept in memory.
 */
final class SpillFraming {
    static final int MAGIC = 0x50474C53; // "PGLS"
    static final int VERSION = 1;
    static final int HEADER_BYTES = 8;
    /** Length and checksum before each payload. */
    static final int FRAME_HEADER_BYTES = 8;
    /** Where a record's length would be, -1 starts the trailer. */
    static final int TRAILER_MARK = -1;

    static final int TRAILER_BYTES = 16;

    private SpillFraming() {}

    static int recordChecksum(CRC32C crc, int length, byte[] payload) {
        crc.reset();
        updateInt(crc, length);
        crc.update(payload, 0, length);
        return (int) crc.getValue();
    }

    static int trailerChecksum(CRC32C crc, long count) {
        crc.reset();
        updateInt(crc, TRAILER_MARK);
        updateInt(crc, (int) (count >>> 32));
        updateInt(crc, (int) count);
        return (int) crc.getValue();
    }

    static int intAt(byte[] bytes, int offset) {
        return (bytes[offset] & 0xff) << 24
                | (bytes[offset + 1] & 0xff) << 16
                | (bytes[offset + 2] & 0xff) << 8
                | (bytes[offset + 3] & 0xff);
    }

    static long longAt(byte[] bytes, int offset) {
        return (long) intAt(bytes, offset) << 32 | (intAt(bytes, offset + 4) & 0xffffffffL);
    }

    private static void updateInt(CRC32C crc, int value) {
        crc.update(value >>> 24);
        crc.update(value >>> 16);
        crc.update(value >>> 8);
        crc.update(value);
    }
}
