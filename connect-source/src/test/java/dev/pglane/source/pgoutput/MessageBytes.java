package dev.pglane.source.pgoutput;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Builds hand-made pgoutput messages, big-endian, for the malformed and edge cases no server sends. */
final class MessageBytes {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static MessageBytes tag(char tag) {
        return new MessageBytes().int8(tag);
    }

    MessageBytes int8(int value) {
        out.write(value);
        return this;
    }

    MessageBytes int16(int value) {
        return int8(value >>> 8).int8(value);
    }

    MessageBytes int32(int value) {
        return int16(value >>> 16).int16(value);
    }

    MessageBytes int64(long value) {
        return int32((int) (value >>> 32)).int32((int) value);
    }

    /** A NUL-terminated UTF-8 string. */
    MessageBytes string(String value) {
        out.writeBytes(value.getBytes(StandardCharsets.UTF_8));
        return int8(0);
    }

    MessageBytes raw(byte... bytes) {
        out.writeBytes(bytes);
        return this;
    }

    /** A {@code 't'} column: kind, length and UTF-8 text. */
    MessageBytes textColumn(String value) {
        byte[] text = value.getBytes(StandardCharsets.UTF_8);
        return int8('t').int32(text.length).raw(text);
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    ByteBuffer buffer() {
        return ByteBuffer.wrap(bytes());
    }

    /** The message of the exception that protocol 4 parsing of these bytes throws. */
    String parseFailure(boolean insideStream) {
        return parseFailure(ProtocolVersion.V4, insideStream);
    }

    /** The message of the exception that parsing these bytes throws. */
    String parseFailure(ProtocolVersion version, boolean insideStream) {
        return assertThrows(
                        PgOutputFormatException.class, () -> new PgOutputParser(version).parse(buffer(), insideStream))
                .getMessage();
    }
}
