package dev.pglane.source.pgoutput;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.Xid;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads the fields of one pgoutput message in order, big-endian, checking every length.
 *
 * <p>Each read names its field, so a short or malformed message fails with the tag, the field and the byte
 * offset (the tag is offset 0). Tuple column values are not copied: {@link #skip} returns their position in
 * the backing array, which stays valid because pgjdbc hands every message in an array of its own.
 */
final class MessageCursor {

    /** Microseconds from the Unix epoch to PostgreSQL's epoch, 2000-01-01 00:00:00 UTC. */
    private static final long POSTGRES_EPOCH_MICROS = 946_684_800_000_000L;

    private final ByteBuffer buffer;
    private final int start;
    private final boolean insideStream;
    private final byte tagByte;

    /** While a tuple is read: its name and column, so errors can name them without a string per column read. */
    private String tupleName;

    private int column = -1;

    /** Positions a private duplicate of {@code message} after its tag byte; the caller's buffer is not moved. */
    MessageCursor(ByteBuffer message, boolean insideStream) {
        this.buffer = heapDuplicate(message).order(ByteOrder.BIG_ENDIAN);
        this.start = buffer.position();
        this.insideStream = insideStream;
        if (!buffer.hasRemaining()) {
            throw new PgOutputFormatException("empty pgoutput message: no tag byte at offset 0");
        }
        this.tagByte = buffer.get();
    }

    /** The message's first byte, which says what the message is. */
    byte tagByte() {
        return tagByte;
    }

    /** The offset of the next byte to read, counted from the tag. */
    int offset() {
        return buffer.position() - start;
    }

    byte int8(String field) {
        require(field, Byte.BYTES);
        return buffer.get();
    }

    short int16(String field) {
        require(field, Short.BYTES);
        return buffer.getShort();
    }

    int int32(String field) {
        require(field, Integer.BYTES);
        return buffer.getInt();
    }

    long int64(String field) {
        require(field, Long.BYTES);
        return buffer.getLong();
    }

    Lsn lsn(String field) {
        return Lsn.valueOf(int64(field));
    }

    long xid(String field) {
        return Xid.fromWire(int32(field));
    }

    /** The xid that precedes the body of R/Y/I/U/D/T/M inside a streamed chunk; {@link Xid#NONE} outside. */
    long streamedXid() {
        return insideStream ? xid("xid") : Xid.NONE;
    }

    /** A PostgreSQL timestamp (µs since 2000-01-01) as microseconds since the Unix epoch. */
    long timestamp(String field) {
        return unixMicros(int64(field));
    }

    /** Microseconds since 2000-01-01 (PostgreSQL's epoch) to microseconds since 1970-01-01. */
    static long unixMicros(long postgresMicros) {
        return postgresMicros + POSTGRES_EPOCH_MICROS;
    }

    /** An {@code Int16} count (of columns), which must not be negative. */
    int count16(String field) {
        int fieldOffset = offset();
        return nonNegative(field, fieldOffset, int16(field));
    }

    /** An {@code Int32} count or byte length, which must not be negative. */
    int count32(String field) {
        int fieldOffset = offset();
        return nonNegative(field, fieldOffset, int32(field));
    }

    /** A NUL-terminated UTF-8 string. */
    String string(String field) {
        int from = buffer.position();
        for (int i = from; i < buffer.limit(); i++) {
            if (buffer.get(i) == 0) {
                String text = new String(buffer.array(), buffer.arrayOffset() + from, i - from, StandardCharsets.UTF_8);
                buffer.position(i + 1);
                return text;
            }
        }
        throw error(field, offset(), "string has no terminating NUL byte before the end of the message");
    }

    /** Steps over {@code length} bytes and returns the index of the first one in {@link #array()}. */
    int skip(String field, int length) {
        require(field, length);
        int arrayIndex = buffer.arrayOffset() + buffer.position();
        buffer.position(buffer.position() + length);
        return arrayIndex;
    }

    /** A copy of the next {@code length} bytes. */
    byte[] bytes(String field, int length) {
        byte[] copy = new byte[length];
        require(field, length);
        buffer.get(copy);
        return copy;
    }

    /** The array that holds the message, for {@link TupleData}'s byte ranges. */
    byte[] array() {
        return buffer.array();
    }

    int remaining() {
        return buffer.remaining();
    }

    /** Errors from now on name fields as part of {@code name}, e.g. {@code new tuple.ncols}. */
    void enterTuple(String name) {
        tupleName = name;
        column = -1;
    }

    /** Errors from now on name fields as part of this column, e.g. {@code new tuple.column[3].kind}. */
    void column(int index) {
        column = index;
    }

    void leaveTuple() {
        tupleName = null;
        column = -1;
    }

    /** Fails if bytes are left after the last field: a layout we do not understand must not pass silently. */
    void expectEnd() {
        if (buffer.hasRemaining()) {
            throw error("end of message", offset(), buffer.remaining() + " trailing bytes after the last field");
        }
    }

    /** The exception for a bad {@code field} at {@code fieldOffset}; message text is built only here. */
    PgOutputFormatException error(String field, int fieldOffset, String problem) {
        String qualified = field;
        if (tupleName != null) {
            qualified = tupleName + (column < 0 ? "." : ".column[" + column + "].") + field;
        }
        return new PgOutputFormatException("pgoutput " + MessageTag.describe(tagByte) + ": field " + qualified
                + " at offset " + fieldOffset + ": " + problem);
    }

    private int nonNegative(String field, int fieldOffset, int value) {
        if (value < 0) {
            throw error(field, fieldOffset, "negative length " + value);
        }
        return value;
    }

    private void require(String field, int bytes) {
        if (buffer.remaining() < bytes) {
            throw error(
                    field,
                    offset(),
                    "needs " + bytes + " bytes but the message ends after " + buffer.remaining()
                            + " (truncated message)");
        }
    }

    /** A writable heap buffer is used as is; anything else (direct, read-only) is copied once. */
    private static ByteBuffer heapDuplicate(ByteBuffer message) {
        if (message.hasArray()) {
            return message.duplicate();
        }
        ByteBuffer copy = ByteBuffer.allocate(message.remaining());
        copy.put(message.duplicate()).flip();
        return copy;
    }
}
