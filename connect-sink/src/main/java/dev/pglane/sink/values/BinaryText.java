package dev.pglane.sink.values;

import dev.pglane.wire.types.Bits;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.apache.kafka.connect.data.Schema;

/** The BYTES and BOOLEAN fields whose text is not the Connect value's own: {@code bytea}, {@code bit(n)}. */
final class BinaryText {

    private static final HexFormat HEX = HexFormat.of();

    private BinaryText() {}

    /** {@code bytea} in the hex input format, {@code \x0102ff}, which needs no escaping of zero bytes. */
    static String bytea(Object value) {
        return "\\x" + HEX.formatHex(bytes(value));
    }

    /** {@code bit(n)}, n &gt; 1, from {@code io.debezium.data.Bits}: the {@code '0'}/{@code '1'} text of n bits. */
    static String bits(Schema schema, Object value) {
        String length = schema.parameters() == null ? null : schema.parameters().get(Bits.LENGTH);
        if (length == null) {
            throw new IllegalArgumentException(Bits.NAME + " schema without the parameter " + Bits.LENGTH);
        }
        return Bits.decode(bytes(value), Integer.parseInt(length));
    }

    /** {@code bit(1)} travels as a BOOLEAN; the bit type reads {@code 1}/{@code 0}. */
    static String bitFlag(Object value) {
        return (Boolean) value ? "1" : "0";
    }

    /** A BYTES value: converters give {@code byte[]}, a hand-built struct may hold a {@link ByteBuffer}. */
    static byte[] bytes(Object value) {
        if (value instanceof ByteBuffer buffer) {
            byte[] out = new byte[buffer.remaining()];
            buffer.duplicate().get(out);
            return out;
        }
        return (byte[]) value;
    }
}
