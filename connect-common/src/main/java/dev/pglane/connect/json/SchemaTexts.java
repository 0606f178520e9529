package dev.pglane.connect.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * The {@code schema} half of JsonConverter envelopes, in both directions, kept as text. A stream of
 * records repeats a few schemas thousands of times: JsonConverter turns each one into a tree of nodes
 * and hashes that tree deeply, once per record. Here a schema written once is reused as bytes (looked
 * up by the schema object's identity: pglane's source reuses its schema objects), and a schema read
 * once is recognized by its bytes (a hash, then an exact comparison, without copying). The
 * conversions themselves are JsonConverter's, so the text is exactly what it writes and reads.
 *
 * <p>Each direction holds at most {@code capacity} schemas and starts afresh beyond that: a stream's
 * schemas are few, so this only guards against a producer that builds a new schema per record.
 * Thread-safe.
 */
final class SchemaTexts {
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Known(byte[] text, Schema schema) {}

    /** A schema recognized at the start of a record's schema text, and where that text ends. */
    record Recognized(Schema schema, int end) {}

    /** How many recently read schemas {@link #recognize} tries before the caller has to find the text's end. */
    private static final int RECENT = 8;

    private final JsonConverter converter;
    private final int capacity;
    private final Map<Schema, byte[]> written = new IdentityHashMap<>();
    private final Map<Integer, List<Known>> read = new HashMap<>();
    /** The schemas read last, most recent first: a record of one of them is recognized by one comparison. */
    private final ArrayDeque<Known> recent = new ArrayDeque<>(RECENT);

    private int readCount;

    SchemaTexts(JsonConverter converter, int capacity) {
        this.converter = converter;
        this.capacity = capacity;
    }

    /** JsonConverter's JSON text of {@code schema}. */
    synchronized byte[] textOf(Schema schema) throws IOException {
        byte[] text = written.get(schema);
        if (text == null) {
            if (written.size() >= capacity) {
                written.clear();
            }
            text = JSON.writeValueAsBytes(converter.asJsonSchema(schema));
            written.put(schema, text);
        }
        return text;
    }

    /**
     * The schema of a recently read record whose text {@code buffer} holds from {@code from} on, followed
     * by {@code follower}. A match is exact: a complete JSON object that the bytes start with ends where
     * it ends, whatever follows.
     *
     * @return the schema and the end of its text, or {@code null} if it is none of the recent ones
     */
    synchronized Recognized recognize(byte[] buffer, int from, byte[] follower) {
        for (Known known : recent) {
            int end = from + known.text().length;
            if (end + follower.length <= buffer.length
                    && Arrays.equals(known.text(), 0, known.text().length, buffer, from, end)
                    && Arrays.equals(follower, 0, follower.length, buffer, end, end + follower.length)) {
                if (recent.peekFirst() != known) {
                    recent.remove(known);
                    recent.addFirst(known);
                }
                return new Recognized(known.schema(), end);
            }
        }
        return null;
    }

    /** The Connect schema whose JSON text is {@code buffer[from, to)}. */
    synchronized Schema schemaOf(byte[] buffer, int from, int to) throws IOException {
        int hash = 1;
        for (int i = from; i < to; i++) {
            hash = 31 * hash + buffer[i];
        }
        List<Known> candidates = read.computeIfAbsent(hash, h -> new ArrayList<>(1));
        for (Known known : candidates) {
            if (Arrays.equals(known.text(), 0, known.text().length, buffer, from, to)) {
                remember(known);
                return known.schema();
            }
        }
        if (readCount >= capacity) {
            read.clear();
            readCount = 0;
            candidates = read.computeIfAbsent(hash, h -> new ArrayList<>(1));
        }
        byte[] text = Arrays.copyOfRange(buffer, from, to);
        Schema schema = converter.asConnectSchema(JSON.readTree(text));
        Known known = new Known(text, schema);
        candidates.add(known);
        readCount++;
        remember(known);
        return schema;
    }

    private void remember(Known known) {
        recent.remove(known);
        if (recent.size() == RECENT) {
            recent.removeLast();
        }
        recent.addFirst(known);
    }
}
