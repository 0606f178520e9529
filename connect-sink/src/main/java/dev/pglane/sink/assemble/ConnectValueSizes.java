package dev.pglane.sink.assemble;

import dev.pglane.wire.envelope.ChangeEvent;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * A rough heap estimate of a change and its Connect values, for the buffer limit: object headers and references of a
 * 64-bit JVM with compressed pointers, string and array contents. It need not be exact, only
 * proportional, so that {@code buffer.max.bytes} means roughly what it says.
 */
final class ConnectValueSizes {
    private static final long OBJECT = 16;
    private static final long REFERENCE = 4;
    private static final long ARRAY = 16;
    private static final long STRING = 24 + ARRAY;
    private static final long BIG_DECIMAL = 40 + ARRAY;
    private static final long MAP_ENTRY = 32;

    /**
     * The objects of a change besides its rows: the event, its source and transaction blocks, their
     * strings and boxed numbers. Counted as a constant, since walking them for every change cost the
     * sink task a tenth of its time.
     */
    private static final long ENVELOPE = 700;

    private ConnectValueSizes() {}

    static long estimate(ChangeEvent event) {
        long size = ENVELOPE + estimate(event.before()) + estimate(event.after());
        for (Map.Entry<String, String> text : event.textValues().entrySet()) {
            size += MAP_ENTRY + leaf(text.getKey()) + leaf(text.getValue());
        }
        if (event.message() != null) {
            size += ARRAY + event.message().content().length;
        }
        return size;
    }

    private static long estimate(Object value) {
        if (value == null) {
            return 0;
        }
        if (value instanceof Struct struct) {
            long size = OBJECT + ARRAY;
            for (Field field : struct.schema().fields()) {
                // by Field, not by name: a name costs a hash lookup, and this runs for every field of every change
                size += REFERENCE + estimate(struct.get(field));
            }
            return size;
        }
        if (value instanceof List<?> list) {
            long size = OBJECT + ARRAY;
            for (Object element : list) {
                size += REFERENCE + estimate(element);
            }
            return size;
        }
        if (value instanceof Map<?, ?> map) {
            long size = 48 + ARRAY;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                size += MAP_ENTRY + estimate(entry.getKey()) + estimate(entry.getValue());
            }
            return size;
        }
        return leaf(value);
    }

    private static long leaf(Object value) {
        if (value instanceof String text) {
            return STRING + text.length();
        }
        if (value instanceof byte[] bytes) {
            return ARRAY + bytes.length;
        }
        if (value instanceof ByteBuffer buffer) {
            return 48 + ARRAY + buffer.remaining();
        }
        if (value instanceof BigDecimal decimal) {
            return BIG_DECIMAL + decimal.unscaledValue().bitLength() / 8 + 1;
        }
        return OBJECT + 8; // a boxed primitive or a java.util.Date
    }
}
