package dev.pglane.wire.types;

import java.util.BitSet;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * {@code bit(n)} for n &gt; 1 as {@code io.debezium.data.Bits}: BYTES with parameter
 * {@code length} = n, in Debezium's layout: the rightmost bit of the PostgreSQL text is bit 0,
 * bytes little-endian ({@link BitSet#toByteArray()}), padded to ⌈n/8⌉ bytes. The length parameter
 * restores leading zero bits on decode.
 */
public final class Bits {

    public static final String NAME = "io.debezium.data.Bits";
    public static final String LENGTH = "length";

    private Bits() {}

    public static SchemaBuilder builder(int length) {
        return SchemaBuilder.bytes().name(NAME).version(1).parameter(LENGTH, Integer.toString(length));
    }

    /**
     * @param bitString PostgreSQL's text, e.g. {@code "10110"}
     * @throws IllegalArgumentException naming the text if it holds other characters than 0 and 1
     */
    public static byte[] encode(String bitString) {
        int n = bitString.length();
        BitSet bits = new BitSet(n);
        for (int i = 0; i < n; i++) {
            char c = bitString.charAt(n - 1 - i);
            if (c == '1') {
                bits.set(i);
            } else if (c != '0') {
                throw new IllegalArgumentException("not a bit string: '" + bitString + "'");
            }
        }
        byte[] out = new byte[(n + 7) / 8];
        byte[] set = bits.toByteArray();
        System.arraycopy(set, 0, out, 0, set.length);
        return out;
    }

    /** The bit string of {@code length} bits from its bytes. */
    public static String decode(byte[] bytes, int length) {
        if (bytes.length * 8 < length) {
            throw new IllegalArgumentException(bytes.length + " bytes cannot hold " + length + " bits");
        }
        BitSet bits = BitSet.valueOf(bytes);
        StringBuilder out = new StringBuilder(length);
        for (int i = length - 1; i >= 0; i--) {
            out.append(bits.get(i) ? '1' : '0');
        }
        return out.toString();
    }
}
