package dev.pglane.connect.avro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.apicurio.registry.rest.client.exception.RestClientException;
import io.apicurio.registry.rest.v2.beans.Error;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.Map;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

/** The settings the connectors give Apicurio's converter, and what its failures mean. */
class AvroPayloadTest {

    private static RestClientException rest(Integer code) {
        Error error = new Error();
        error.setErrorCode(code);
        error.setName(code == null ? "ConnectException" : "ArtifactNotFoundException");
        error.setMessage(code == null ? "Connection refused" : "No content with id 99");
        return new RestClientException(error);
    }

    @Test
    void aRegistryThatCannotBeReachedIsWaitedOutAndAnythingElseIsTheRecords() {
        assertInstanceOf(RetriableException.class, AvroPayload.failure(rest(null), "record t-0@1"));
        assertInstanceOf(RetriableException.class, AvroPayload.failure(rest(503), "record t-0@1"));
        assertInstanceOf(RetriableException.class, AvroPayload.failure(rest(409), "a value of topic t"));
        assertInstanceOf(
                RetriableException.class,
                AvroPayload.failure(
                        new UncheckedIOException(new ConnectException("Connection refused")), "record t-0@1"));

        var unknownId = AvroPayload.failure(rest(404), "record t-0@41");
        assertInstanceOf(DataException.class, unknownId);
        assertTrue(
                unknownId.getMessage().startsWith("record t-0@41 is not Avro the registry knows"),
                unknownId.getMessage());
        assertInstanceOf(
                DataException.class, AvroPayload.failure(new SerializationException("Unknown magic byte!"), "record"));
    }

    @Test
    void aBodyCutShortIsTheRecordsProblemNotAnUnreachableRegistry() {
        // Avro's own decoder, reading a string whose bytes end early, throws an EOFException: an IOException
        IOException cutShort = assertThrows(
                IOException.class,
                () -> DecoderFactory.get()
                        .binaryDecoder(new byte[] {20, 'a'}, null)
                        .readString());
        var failure = AvroPayload.failure(new SerializationException("cannot read", cutShort), "record t-0@5");
        assertInstanceOf(DataException.class, failure, "retried, one short record would stop the sink for ever");
        assertTrue(failure.getMessage().startsWith("record t-0@5 is not Avro"), failure.getMessage());
    }

    @Test
    void thePayloadAvroKeysGoToTheConverterOverConfluentsFraming() {
        Map<String, String> settings = AvroPayload.settings(Map.of(
                "payload.avro.apicurio.registry.url", "http://r:8080/apis/registry/v2",
                "payload.avro.apicurio.registry.auto-register", "false",
                "payload.format", "avro"));
        assertEquals("http://r:8080/apis/registry/v2", settings.get("apicurio.registry.url"));
        assertEquals("false", settings.get("apicurio.registry.auto-register"));
        assertEquals("true", settings.get("apicurio.registry.as-confluent"));
        assertEquals("contentId", settings.get("apicurio.registry.use-id"));
        assertEquals("false", settings.get("apicurio.registry.headers.enabled"));
        assertEquals(5, settings.size(), settings::toString);
    }
}
