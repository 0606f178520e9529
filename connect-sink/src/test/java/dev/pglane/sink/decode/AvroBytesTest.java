package dev.pglane.sink.decode;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.avro.AvroPayload;
import dev.pglane.connect.avro.SilentRegistry;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class AvroBytesTest {
    @Test
    void aRecordOfAnUnknownSchemaFailsAsRetriableInTimeWhenTheRegistryNeverAnswers() throws Exception {
        try (SilentRegistry registry = new SilentRegistry()) {
            Map<String, String> settings = AvroPayload.settings(Map.of(AvroPayload.REGISTRY_URL, registry.url()));
            PayloadReader.AvroBytes reader = new PayloadReader.AvroBytes(settings, Duration.ofMillis(500));
            // Confluent's framing: magic byte, schema id 7, then an Avro long
            byte[] value = {0, 0, 0, 0, 7, 2};
            SinkRecord record = new SinkRecord("p.public.t", 0, null, null, null, value, 41);

            RetriableException failure = assertTimeoutPreemptively(
                    Duration.ofSeconds(20), () -> assertThrows(RetriableException.class, () -> reader.value(record)));
            assertTrue(failure.getMessage().contains(registry.url()), failure.getMessage());
            assertTrue(failure.getMessage().contains("record p.public.t-0@41"), failure.getMessage());
        }
    }
}
