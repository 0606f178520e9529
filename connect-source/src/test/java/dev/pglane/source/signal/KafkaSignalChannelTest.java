package dev.pglane.source.signal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.connect.database.TlsSettings;
import dev.pglane.source.AwaitFailure;
import dev.pglane.source.seal.MessageSeal;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.postgresql.jdbc.SslMode;

/** The signal channel's thread: an error that ends it fails the task, since every later signal would go unread. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KafkaSignalChannelTest {
    private static final KafkaSignalChannel.Settings SETTINGS = new KafkaSignalChannel.Settings(
            "shop-source",
            MessageSeal.configured("shop", "a key of sixteen characters"),
            "shop_signals",
            "localhost:9",
            Map.of(),
            new DatabaseEndpoint(
                    "localhost",
                    9,
                    "shop",
                    "app",
                    null,
                    new TlsSettings(SslMode.DISABLE, "", "", "", null),
                    Duration.ofSeconds(1)));

    /** A consumer whose poll throws what it is given, as a broken client library or a full heap would. */
    private static final class Throwing extends MockConsumer<String, String> {
        private final Error error;

        Throwing(Error error) {
            super("earliest");
            this.error = error;
        }

        @Override
        public synchronized ConsumerRecords<String, String> poll(Duration timeout) {
            throw error;
        }
    }

    @Test
    void anErrorOnTheChannelsThreadFailsTheTask() throws Exception {
        KafkaSignalChannel channel =
                KafkaSignalChannel.start(SETTINGS, config -> new Throwing(new StackOverflowError("injected")));
        try {
            ConnectException e = AwaitFailure.of(channel::rethrowFailure, Duration.ofSeconds(20));
            assertTrue(e.getMessage().contains("Reading signal topic shop_signals failed"), e.getMessage());
            assertTrue(e.getMessage().contains("StackOverflowError: injected"), e.getMessage());
        } finally {
            channel.close();
        }
    }

    @Test
    void aChannelThatReadsOnFailsNothing() throws Exception {
        KafkaSignalChannel channel = KafkaSignalChannel.start(SETTINGS, config -> new MockConsumer<>("earliest"));
        Thread.sleep(200);
        channel.close();
        assertDoesNotThrow(channel::rethrowFailure);
    }
}
