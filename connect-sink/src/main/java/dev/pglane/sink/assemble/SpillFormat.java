package dev.pglane.sink.assemble;

import dev.pglane.wire.envelope.ChangeEnvelope;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.Op;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * How one spilled copy writes its records: the envelope struct in {@link ConnectValueCodec}'s form,
 * preceded by indexes into two tables kept in memory for the copy's lifetime, its distinct envelope
 * schemas and its partitions. Schemas are never written to disk, so a record costs little more than
 * its values, and read-back records share the original {@link Schema} objects.
 */
final class SpillFormat {
    /**
     * A truncate record has no row, so its envelope cannot be rebuilt from one; any row envelope
     * carries the {@code truncate} field, and the row schema's name does not survive decoding.
     */
    private static final Schema NO_ROW = SchemaBuilder.struct()
            .name("dev.pglane.sink.spill.Value")
            .optional()
            .build();

    private final EnvelopeSchemas envelopes;
    private final Map<Schema, Integer> indexByKey = new IdentityHashMap<>();
    private final List<Schema> schemas = new ArrayList<>();
    private final Map<TopicPartition, Integer> indexByPartition = new HashMap<>();
    private final List<TopicPartition> partitions = new ArrayList<>();

    SpillFormat(EnvelopeSchemas envelopes) {
        this.envelopes = envelopes;
    }

    void write(DataOutput out, ChangeRecord record) throws IOException {
        ChangeEvent event = record.event();
        int schemaIndex = schemaIndex(event);
        out.writeInt(partitionIndex(record.partition()));
        out.writeLong(record.offset());
        out.writeLong(record.sizeBytes());
        out.writeInt(schemaIndex);
        Schema envelope = schemas.get(schemaIndex);
        ConnectValueCodec.write(out, envelope, ChangeEnvelope.toStruct(event, envelope));
    }

    ChangeRecord read(DataInput in) throws IOException {
        TopicPartition partition = partitions.get(in.readInt());
        long offset = in.readLong();
        long sizeBytes = in.readLong();
        Schema envelope = schemas.get(in.readInt());
        Struct value = (Struct) ConnectValueCodec.read(in, envelope);
        return new ChangeRecord(partition, offset, ChangeEnvelope.fromStruct(value), sizeBytes);
    }

    /**
     * The envelope schema of {@code event}, as the source built it: from the row schema for table
     * records, from the topic prefix for messages. Looked up by identity, which is cheap per record.
     */
    private int schemaIndex(ChangeEvent event) {
        boolean message = event.op() == Op.MESSAGE;
        Schema key = message ? envelopes.forMessages(event.source().name()) : rowSchema(event);
        Integer known = indexByKey.get(key);
        if (known != null) {
            return known;
        }
        schemas.add(message ? key : envelopes.forRow(key));
        indexByKey.put(key, schemas.size() - 1);
        return schemas.size() - 1;
    }

    private static Schema rowSchema(ChangeEvent event) {
        Struct row = event.after() != null ? event.after() : event.before();
        return row == null ? NO_ROW : row.schema();
    }

    private int partitionIndex(TopicPartition partition) {
        return indexByPartition.computeIfAbsent(partition, added -> {
            partitions.add(added);
            return partitions.size() - 1;
        });
    }
}
