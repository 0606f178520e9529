package dev.pglane.connect.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.kafka.connect.data.Schema;

/**
 * The payload of one record at a time, written by one generator into one buffer kept between records:
 * a new generator and a buffer grown from nothing for every record cost the source task about a tenth of
 * its time. A generator left mid-value by a failed write is unusable: drop the buffer then. Not
 * thread-safe.
 */
final class PayloadBuffer extends ByteArrayOutputStream {
    /** A buffer grown past this by a large record is not kept. */
    private static final int KEEP_AT_MOST = 1 << 20;

    private final JsonGenerator generator;

    PayloadBuffer(JsonFactory factory) throws IOException {
        super(1024);
        generator = factory.createGenerator(this);
        generator.setRootValueSeparator(null); // one root value after another, nothing in between
    }

    /** Writes the payload of {@code value}; its bytes stay until the next call. */
    void write(Schema schema, Object value) throws IOException {
        reset();
        JsonPayloadWriter.write(generator, schema, value);
        generator.flush();
    }

    /** Copies the payload into {@code target} at {@code offset}. */
    void copyTo(byte[] target, int offset) {
        System.arraycopy(buf, 0, target, offset, count);
    }

    /** Whether this buffer is small enough to keep for the next record. */
    boolean worthKeeping() {
        return buf.length <= KEEP_AT_MOST;
    }
}
