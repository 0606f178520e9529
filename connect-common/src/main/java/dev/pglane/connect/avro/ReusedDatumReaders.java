package dev.pglane.connect.avro;

import io.apicurio.registry.serde.avro.DefaultAvroDatumProvider;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;

/**
 * The datum readers of Apicurio's Avro deserializer, one per writer schema instead of one per record. The deserializer
 * asks its provider for a new reader for every record it reads, and Avro's reader compiles its decoding plan (the
 * schema resolution) on its first read: about 20 µs per record of a change envelope, against 1 µs for a reader used
 * again. The registry client hands out one parsed schema per id, so readers are kept by schema identity. One
 * deserializer, hence one provider, per thread: {@link AvroPayload#converter} makes a converter per thread.
 */
public final class ReusedDatumReaders<T> extends DefaultAvroDatumProvider<T> {
    /** More writer schemas than any pipeline has; past it the readers are compiled again as they are needed. */
    static final int MAX_READERS = 1024;

    private final Map<Schema, DatumReader<T>> readers = new IdentityHashMap<>();

    @Override
    public DatumReader<T> createDatumReader(Schema schema) {
        DatumReader<T> reader = readers.get(schema);
        if (reader == null) {
            if (readers.size() >= MAX_READERS) {
                readers.clear(); // schemas come by id from record bytes: a bound, not a leak
            }
            reader = super.createDatumReader(schema);
            readers.put(schema, reader);
        }
        return reader;
    }

    int size() {
        return readers.size();
    }
}
