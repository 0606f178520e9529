package dev.pglane.connect.avro;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.TransactionKey;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

class AvroWriterTest {
    @Test
    void aRegistryThatNeverAnswersFailsASchemasFirstRecordAsRetriableInTime() throws Exception {
        try (SilentRegistry registry = new SilentRegistry()) {
            Map<String, String> settings = AvroPayload.settings(Map.of(AvroPayload.REGISTRY_URL, registry.url()));
            AvroWriter writer = new AvroWriter(
                    AvroPayload.converter(settings, true), settings, new SchemaIds(), Duration.ofMillis(500));

            RetriableException failure = assertTimeoutPreemptively(
                    Duration.ofSeconds(20),
                    () -> assertThrows(
                            RetriableException.class,
                            () -> writer.write("t", TransactionKey.SCHEMA, TransactionKey.of(7))));
            assertTrue(failure.getMessage().contains(registry.url()), failure.getMessage());
            assertTrue(failure.getMessage().contains("did not answer within 500 ms"), failure.getMessage());
            assertTrue(failure.getMessage().contains("on topic t"), failure.getMessage());
        }
    }
}
