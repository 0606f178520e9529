package dev.pglane.wire.avro;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;

/**
 * The Avro form of the pglane wire schemas, as shipped in
 * {@code dev/pglane/wire/avro/*.avsc}: what an Avro converter (Confluent's or Apicurio's) registers
 * for the Connect schemas of {@code dev.pglane.wire}, without the converters' {@code connect.*}
 * properties. Consumers outside Connect can compile them; a unit test keeps them in step with the
 * Connect schemas.
 *
 * <p>Needs Avro on the classpath, which the connectors themselves do not.
 */
public final class WireAvroSchemas {

    /** The directory of the .avsc resources on the classpath. */
    public static final String RESOURCE_DIR = "/dev/pglane/wire/avro/";

    private WireAvroSchemas() {}

    /** {@code dev.pglane.wire.TransactionKey}, the key of every record. */
    public static Schema key() {
        return load("key.avsc");
    }

    /** {@code dev.pglane.wire.Marker}, the value on {@code <prefix>.transactions}. */
    public static Schema marker() {
        return load("marker.avsc");
    }

    /** {@code dev.pglane.wire.Source}, the envelope's {@code source} block. */
    public static Schema source() {
        return load("source.avsc");
    }

    /** {@code dev.pglane.wire.TransactionBlock}, the envelope's {@code transaction} block. */
    public static Schema transaction() {
        return load("transaction.avsc");
    }

    /**
     * The envelope of an example table: {@code public.orders (id integer primary key,
     * amount numeric(10,2), note text, placed_at timestamptz)} with topic prefix {@code shop}.
     */
    public static Schema exampleEnvelope() {
        return load("example-envelope.avsc");
    }

    /**
     * Parses one of the .avsc resources by file name.
     *
     * @throws IllegalArgumentException if there is no such resource
     */
    public static Schema load(String fileName) {
        try (InputStream in = WireAvroSchemas.class.getResourceAsStream(RESOURCE_DIR + fileName)) {
            if (in == null) {
                throw new IllegalArgumentException("no Avro schema resource " + RESOURCE_DIR + fileName);
            }
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE_DIR + fileName, e);
        }
    }
}
