package dev.pglane.source.pgoutput;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Tuples as pgoutput sends them, parsed from the wire by the real parser. */
public final class TestTuples {
    /** The value that stands for an unchanged TOAST column ('u'). */
    public static final String UNCHANGED_TOAST = "\u0000u";

    private TestTuples() {}

    /** A tuple of {@code values}: each {@code null} ('n'), {@link #UNCHANGED_TOAST} or text. */
    public static TupleData of(String... values) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte('I');
            out.writeInt(16_001);
            out.writeByte('N');
            out.writeShort(values.length);
            for (String value : values) {
                if (value == null) {
                    out.writeByte('n');
                } else if (value.equals(UNCHANGED_TOAST)) {
                    out.writeByte('u');
                } else {
                    byte[] text = value.getBytes(StandardCharsets.UTF_8);
                    out.writeByte('t');
                    out.writeInt(text.length);
                    out.write(text);
                }
            }
            InsertMessage insert = (InsertMessage)
                    new PgOutputParser(ProtocolVersion.V4).parse(ByteBuffer.wrap(bytes.toByteArray()), false);
            return insert.newTuple();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
