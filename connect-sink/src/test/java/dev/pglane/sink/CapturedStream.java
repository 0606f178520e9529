package dev.pglane.sink;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Records a real source connector wrote to Kafka, as bytes, with the DDL of their tables: the fixture
 * {@code mutation/captured-json.txt}, written by integration-tests' {@code SinkInputCaptureIT}.
 *
 * @param prefix the source's topic prefix
 * @param ddl the statements that create the source's tables (and their types) on the target
 * @param records every record of the prefix's topics, in the order a consumer of them all could see them: per
 *     partition in offset order, the change topics' records before the markers that count them
 */
record CapturedStream(String prefix, List<String> ddl, List<SinkRecord> records) {

    static CapturedStream load(String resource) throws IOException {
        try (InputStream in = CapturedStream.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("no fixture " + resource + " on the class path");
            }
            return read(in);
        }
    }

    /** A capture in a file of the fixture's format (integration-tests' AvroInputMutationIT writes one). */
    static CapturedStream load(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in);
        }
    }

    private static CapturedStream read(InputStream in) throws IOException {
        String prefix = null;
        List<String> ddl = new ArrayList<>();
        List<SinkRecord> records = new ArrayList<>();
        Base64.Decoder base64 = Base64.getDecoder();
        BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            String[] fields = line.split(" ");
            switch (fields[0]) {
                case "prefix" -> prefix = fields[1];
                case "ddl" -> ddl.add(new String(base64.decode(fields[1]), StandardCharsets.UTF_8));
                case "record" ->
                    records.add(new SinkRecord(
                            fields[1],
                            Integer.parseInt(fields[2]),
                            null,
                            fields[4].equals("-") ? null : base64.decode(fields[4]),
                            null,
                            fields[5].equals("-") ? null : base64.decode(fields[5]),
                            Long.parseLong(fields[3])));
                default -> {} // a comment
            }
        }
        String markers = prefix + ".transactions";
        records.sort(Comparator.comparing((SinkRecord r) -> r.topic().equals(markers))
                .thenComparing(SinkRecord::topic)
                .thenComparingInt(SinkRecord::kafkaPartition)
                .thenComparingLong(SinkRecord::kafkaOffset));
        return new CapturedStream(prefix, List.copyOf(ddl), List.copyOf(records));
    }

    String markerTopic() {
        return prefix + ".transactions";
    }

    /** Every partition a record of the stream is on. */
    Set<TopicPartition> partitions() {
        Set<TopicPartition> partitions = new LinkedHashSet<>();
        records.forEach(r -> partitions.add(new TopicPartition(r.topic(), r.kafkaPartition())));
        return partitions;
    }

    /** {@code topic-partition@offset}, as the sink names a record. */
    static String position(SinkRecord record) {
        return record.topic() + "-" + record.kafkaPartition() + "@" + record.kafkaOffset();
    }
}
