package dev.pglane.connect.avro;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.wire.TransactionKey;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.storage.Converter;
import org.junit.jupiter.api.Test;

/** Writers of several lanes sharing their registered ids: one registry call per schema and topic, not one per lane. */
class SchemaIdsTest {
    private static final Map<String, String> SETTINGS =
            AvroPayload.settings(Map.of(AvroPayload.REGISTRY_URL, "http://127.0.0.1:9"));
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void aSchemaOneLaneRegisteredIsWrittenByAnotherWithoutAskingTheRegistry() {
        SchemaIds ids = new SchemaIds();
        Registering first = new Registering(41);
        Registering second = new Registering(99);
        AvroWriter laneA = new AvroWriter(first, SETTINGS, ids, TIMEOUT);
        AvroWriter laneB = new AvroWriter(second, SETTINGS, ids, TIMEOUT);

        laneA.write("t", TransactionKey.SCHEMA, TransactionKey.of(7));
        byte[] fromB = laneB.write("t", TransactionKey.SCHEMA, TransactionKey.of(7));

        assertEquals(1, first.calls.get());
        assertEquals(0, second.calls.get(), "lane B asked the registry for a schema lane A had registered");
        assertEquals(41, ByteBuffer.wrap(fromB, 1, 4).getInt());
        assertArrayEquals(laneA.write("t", TransactionKey.SCHEMA, TransactionKey.of(7)), fromB);
        laneB.write("u", TransactionKey.SCHEMA, TransactionKey.of(7));
        assertEquals(1, second.calls.get(), "another topic is another subject: registered again");
    }

    @Test
    void aLaneThatMeetsASchemaBeingRegisteredWaitsForItsId() throws Exception {
        SchemaIds ids = new SchemaIds();
        Registering slow = new Registering(41);
        slow.hold = new CountDownLatch(1);
        Registering other = new Registering(99);
        AvroWriter laneA = new AvroWriter(slow, SETTINGS, ids, TIMEOUT);
        AvroWriter laneB = new AvroWriter(other, SETTINGS, ids, TIMEOUT);

        CompletableFuture<byte[]> a =
                CompletableFuture.supplyAsync(() -> laneA.write("t", TransactionKey.SCHEMA, TransactionKey.of(1)));
        assertTrue(slow.entered.await(10, TimeUnit.SECONDS));
        CompletableFuture<byte[]> b =
                CompletableFuture.supplyAsync(() -> laneB.write("t", TransactionKey.SCHEMA, TransactionKey.of(2)));
        assertThrows(java.util.concurrent.TimeoutException.class, () -> b.get(200, TimeUnit.MILLISECONDS));
        slow.hold.countDown();

        assertEquals(41, ByteBuffer.wrap(b.get(10, TimeUnit.SECONDS), 1, 4).getInt());
        a.get(10, TimeUnit.SECONDS);
        assertEquals(0, other.calls.get());
    }

    @Test
    void aFailedRegistrationIsTriedAgainByTheNextLaneThatMeetsTheSchema() {
        SchemaIds ids = new SchemaIds();
        Registering failing = new Registering(41);
        failing.failure = new RetriableException("registry down");
        Registering working = new Registering(42);
        AvroWriter laneA = new AvroWriter(failing, SETTINGS, ids, TIMEOUT);
        AvroWriter laneB = new AvroWriter(working, SETTINGS, ids, TIMEOUT);

        assertThrows(RetriableException.class, () -> laneA.write("t", TransactionKey.SCHEMA, TransactionKey.of(7)));
        byte[] fromB = laneB.write("t", TransactionKey.SCHEMA, TransactionKey.of(7));

        assertEquals(1, working.calls.get());
        assertEquals(42, ByteBuffer.wrap(fromB, 1, 4).getInt());
    }

    /** Stands in for Apicurio's converter: "registers" by answering a fixed id in Confluent's framing. */
    private static final class Registering implements Converter {
        final AtomicInteger calls = new AtomicInteger();
        final CountDownLatch entered = new CountDownLatch(1);
        final int id;
        CountDownLatch hold;
        RuntimeException failure;

        Registering(int id) {
            this.id = id;
        }

        @Override
        public void configure(Map<String, ?> configs, boolean isKey) {}

        @Override
        public byte[] fromConnectData(String topic, Schema schema, Object value) {
            calls.incrementAndGet();
            entered.countDown();
            try {
                if (hold != null && !hold.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            if (failure != null) {
                throw failure;
            }
            return ByteBuffer.allocate(6).put((byte) 0).putInt(id).put((byte) 0).array();
        }

        @Override
        public SchemaAndValue toConnectData(String topic, byte[] value) {
            throw new UnsupportedOperationException();
        }
    }
}
