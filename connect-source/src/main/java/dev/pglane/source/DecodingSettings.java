package dev.pglane.source;

import static org.apache.kafka.common.config.ConfigDef.Importance.LOW;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.Type.BOOLEAN;
import static org.apache.kafka.common.config.ConfigDef.Type.INT;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.avro.AvroPayload;
import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.connect.config.EnumChoice;
import dev.pglane.connect.config.PayloadFormat;
import dev.pglane.wire.types.IntervalMapping;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.ValueMappings;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The keys of the source's configuration that say how the decoder lanes turn changes into records and hand them to
 * Connect: their docs, defaults and validators, defined into {@link PgSourceConfig#CONFIG_DEF}, which reads them.
 */
public final class DecodingSettings {
    public static final String DECODER_LANES = "decoder.lanes";
    static final String DECODER_LANES_DOC = "Decoder threads that turn pgoutput tuples into records in parallel;"
            + " the stream order is kept whatever the number. 0: one per available core.";
    static final int DECODER_LANES_DEFAULT = 0;

    public static final String PAYLOAD_FORMAT = "payload.format";
    static final String PAYLOAD_FORMAT_DOC = "How the source hands records to Connect. json: the decoder lanes write"
            + " each key and value as JSON with schemas, byte for byte what pglane's and Kafka's JsonConverter"
            + " (schemas.enable=true) write, several records at once, and the worker passes the bytes on as they are"
            + " (set key.converter and value.converter to org.apache.kafka.connect.converters.ByteArrayConverter);"
            + " for hosts with cores to spare, where the task thread is the source's busiest (on 2 cores it gained"
            + " nothing). connect: records carry Connect structs, which the worker's converters write on the task"
            + " thread, one record after the other. avro: the lanes write Avro in Confluent's framing through the schema"
            + " registry named by " + AvroPayload.REGISTRY_URL + ", with Apicurio's converter, which the worker"
            + " passes on (ByteArrayConverter again): no schema travels with a record.";
    static final String PAYLOAD_FORMAT_DEFAULT = EnumChoice.valueOf(PayloadFormat.CONNECT);
    public static final EnumChoice<PayloadFormat> PAYLOAD_FORMATS = EnumChoice.of(PayloadFormat.class);

    public static final String RECORD_KEY = "record.key";
    static final String RECORD_KEY_DOC = "What change records are keyed by. transaction: the xid, so that a"
            + " transaction's changes on a topic share a partition. row: the table's replica identity columns (its"
            + " primary key under REPLICA IDENTITY FULL or NOTHING; no key for a table without one), as Debezium keys"
            + " them, for consumers that keep one row per key, such as upserting JDBC sinks and log compaction; the xid"
            + " then travels in the pglane.xid header and the envelope, and pglane's sink reads either. Markers and"
            + " logical decoding messages stay keyed by xid.";
    static final String RECORD_KEY_DEFAULT = EnumChoice.valueOf(RecordKey.TRANSACTION);
    static final EnumChoice<RecordKey> RECORD_KEYS = EnumChoice.of(RecordKey.class);

    public static final String TOMBSTONES_ON_DELETE = "tombstones.on.delete";
    static final String TOMBSTONES_ON_DELETE_DOC = "With record.key=row, follow each delete with a tombstone (the"
            + " same key, a null value), as Debezium does, so that log compaction can drop the row's records. An update"
            + " that changes a row's key is always preceded by a delete of the old key (op d, without a transaction"
            + " block), whatever this says: it is how a consumer that keeps one row per key learns that the old key is"
            + " gone; that delete too is followed by a tombstone when this is true. pglane's sink skips both.";
    static final boolean TOMBSTONES_ON_DELETE_DEFAULT = true;

    public static final String DECODER_BATCH_SIZE = "decoder.batch.size";
    static final String DECODER_BATCH_SIZE_DOC =
            "Messages the reader hands to a decoder lane at once. Larger batches cost less hand-over per message.";
    static final int DECODER_BATCH_SIZE_DEFAULT = 64;

    public static final String DECODER_QUEUE_CAPACITY = "decoder.queue.capacity";
    static final String DECODER_QUEUE_CAPACITY_DOC = "Batches each lane queue holds. With the batch size and the"
            + " lane count it bounds the connector's memory; when full, the reader waits and the server holds back.";
    static final int DECODER_QUEUE_CAPACITY_DEFAULT = 16;

    public static final String POLL_BATCH_MAX_RECORDS = "poll.batch.max.records";
    static final String POLL_BATCH_MAX_RECORDS_DOC = "Most records one poll() hands to Connect.";
    static final int POLL_BATCH_MAX_RECORDS_DEFAULT = 2048;

    public static final String NUMERIC_MAPPING = "numeric.mapping";
    static final String NUMERIC_MAPPING_DOC = "How numeric columns appear in records: precise (Connect Decimal;"
            + " NaN and infinities kept), string (the server's text) or double (lossy).";
    static final String NUMERIC_MAPPING_DEFAULT = EnumChoice.valueOf(NumericMapping.PRECISE);
    static final EnumChoice<NumericMapping> NUMERIC_MAPPINGS = EnumChoice.of(NumericMapping.class);

    public static final String INTERVAL_HANDLING_MODE = "interval.handling.mode";
    static final String INTERVAL_HANDLING_MODE_DOC = "How interval columns appear in records, as Debezium's setting"
            + " of the same name. string: ISO-8601 text (io.debezium.time.Interval), lossless: months, days and time"
            + " kept apart. numeric: microseconds (io.debezium.time.MicroDuration), Debezium's default and what its JDBC"
            + " sink takes; a month counts as 30.4375 days and a day as 24 hours, so '1 mon' reaches a target as"
            + " '30 days 10:30:00'; infinite intervals travel as text.";
    static final String INTERVAL_HANDLING_MODE_DEFAULT = EnumChoice.valueOf(IntervalMapping.STRING);
    static final EnumChoice<IntervalMapping> INTERVAL_HANDLING_MODES = EnumChoice.of(IntervalMapping.class);

    private DecodingSettings() {}

    /** The {@link #NUMERIC_MAPPING} and {@link #INTERVAL_HANDLING_MODE} of {@code config}. */
    static ValueMappings valueMappings(AbstractConfig config) {
        return new ValueMappings(
                NUMERIC_MAPPINGS.parse(config.getString(NUMERIC_MAPPING)),
                INTERVAL_HANDLING_MODES.parse(config.getString(INTERVAL_HANDLING_MODE)));
    }

    static void define(ConfigGroup group) {
        group.key(DECODER_LANES, "Decoder lanes", Width.SHORT)
                .define(INT, DECODER_LANES_DEFAULT, Range.between(0, 64), MEDIUM, DECODER_LANES_DOC);
        group.key(PAYLOAD_FORMAT, "Payload format", Width.SHORT)
                .define(STRING, PAYLOAD_FORMAT_DEFAULT, PAYLOAD_FORMATS, MEDIUM, PAYLOAD_FORMAT_DOC);
        AvroPayload.define(group);
        group.key(RECORD_KEY, "Record key", Width.SHORT)
                .define(STRING, RECORD_KEY_DEFAULT, RECORD_KEYS, MEDIUM, RECORD_KEY_DOC);
        group.key(TOMBSTONES_ON_DELETE, "Tombstones on delete", Width.SHORT)
                .define(BOOLEAN, TOMBSTONES_ON_DELETE_DEFAULT, null, LOW, TOMBSTONES_ON_DELETE_DOC);
        group.key(DECODER_BATCH_SIZE, "Decoder batch size", Width.SHORT)
                .define(INT, DECODER_BATCH_SIZE_DEFAULT, Range.between(1, 65_536), LOW, DECODER_BATCH_SIZE_DOC);
        group.key(DECODER_QUEUE_CAPACITY, "Decoder queue capacity", Width.SHORT)
                .define(INT, DECODER_QUEUE_CAPACITY_DEFAULT, Range.between(1, 65_536), LOW, DECODER_QUEUE_CAPACITY_DOC);
        group.key(POLL_BATCH_MAX_RECORDS, "Records per poll", Width.SHORT)
                .define(INT, POLL_BATCH_MAX_RECORDS_DEFAULT, Range.atLeast(1), LOW, POLL_BATCH_MAX_RECORDS_DOC);
        group.key(NUMERIC_MAPPING, "Numeric mapping", Width.SHORT)
                .define(STRING, NUMERIC_MAPPING_DEFAULT, NUMERIC_MAPPINGS, MEDIUM, NUMERIC_MAPPING_DOC);
        group.key(INTERVAL_HANDLING_MODE, "Interval handling", Width.SHORT)
                .define(
                        STRING,
                        INTERVAL_HANDLING_MODE_DEFAULT,
                        INTERVAL_HANDLING_MODES,
                        MEDIUM,
                        INTERVAL_HANDLING_MODE_DOC);
    }
}
