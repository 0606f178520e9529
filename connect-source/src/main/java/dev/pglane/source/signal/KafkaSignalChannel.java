package dev.pglane.source.signal;

import dev.pglane.connect.database.DatabaseEndpoint;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.seal.MessageSeal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the signal topic ({@code signal.kafka.topic}) on a thread of its own and writes each signal for this
 * connector into the source's WAL as a {@link SignalMessage}, which the reader meets at its point of the stream. A
 * record's offset is committed only once its message is in the WAL, so a signal survives a restart between the two
 * (and is then written twice at worst: a snapshot asked for twice runs once more, which changes no row).
 */
public final class KafkaSignalChannel implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(KafkaSignalChannel.class);
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Duration RETRY = Duration.ofSeconds(5);
    private static final String EMIT = "SELECT pg_catalog.pg_logical_emit_message(true, ?, ?)";

    /**
     * Who reads and where the messages go.
     *
     * @param seal the connector's seal, which the messages carry; its connector is the key of the records to act on
     */
    public record Settings(
            String connectorName,
            MessageSeal seal,
            String topic,
            String bootstrapServers,
            Map<String, Object> consumerOverrides,
            DatabaseEndpoint endpoint) {}

    private final Settings settings;
    private final Function<Map<String, Object>, Consumer<String, String>> consumers;
    private final FailureSlot failures = new FailureSlot();
    private final Thread thread;
    private volatile boolean closed;
    private volatile Consumer<String, String> consumer;
    private Connection connection;

    private KafkaSignalChannel(Settings settings, Function<Map<String, Object>, Consumer<String, String>> consumers) {
        this.settings = settings;
        this.consumers = consumers;
        this.thread = new Thread(this::run, "pglane-" + settings.connectorName() + "-signals");
        thread.setDaemon(true);
    }

    public static KafkaSignalChannel start(Settings settings) {
        return start(
                settings, config -> new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer()));
    }

    /** Reads through the consumers {@code consumers} makes from the channel's consumer settings. */
    static KafkaSignalChannel start(
            Settings settings, Function<Map<String, Object>, Consumer<String, String>> consumers) {
        KafkaSignalChannel channel = new KafkaSignalChannel(settings, consumers);
        channel.thread.start();
        log.info(
                "pglane source {}: reading signals for topic prefix {} from topic {}",
                settings.connectorName(),
                settings.seal().connector(),
                settings.topic());
        return channel;
    }

    /** The consumer's settings: the caller's overrides win over everything but the deserializers. */
    Map<String, Object> consumerConfig() {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "pglane-" + settings.connectorName() + "-signals");
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "pglane-" + settings.connectorName() + "-signals");
        // a signal written before the connector's first start is still for it
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putAll(settings.consumerOverrides());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return config;
    }

    /** Throws what ended the channel's thread, if anything did: the task fails instead of losing its signals. */
    public void rethrowFailure() {
        failures.rethrow();
    }

    private void run() {
        try {
            read();
        } catch (Throwable e) { // a thread that died quietly would leave every later signal unread
            if (!closed) {
                failures.fail(new ConnectException("Reading signal topic " + settings.topic() + " failed: " + e, e));
            }
        } finally {
            closeConnection();
        }
    }

    /** Reads until closed; a failure of the consumer is logged and the topic read again after a pause. */
    private void read() {
        while (!closed) {
            try (Consumer<String, String> reading = consumers.apply(consumerConfig())) {
                consumer = reading;
                reading.subscribe(List.of(settings.topic()));
                while (!closed) {
                    boolean written = true;
                    for (ConsumerRecord<String, String> record : reading.poll(POLL)) {
                        written = written && forward(record);
                    }
                    if (written) {
                        reading.commitSync();
                    }
                }
            } catch (WakeupException e) {
                // close() woke the consumer
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (!closed) {
                    log.error(
                            "pglane source {}: reading signal topic {} failed; reading it again in {} s",
                            settings.connectorName(),
                            settings.topic(),
                            RETRY.toSeconds(),
                            e);
                    pause();
                }
            }
        }
    }

    /**
     * Writes the record's signal into the WAL, trying again until it is there or the channel closes.
     *
     * @return false if the channel closed first: the record's offset must not be committed
     */
    private boolean forward(ConsumerRecord<String, String> record) throws InterruptedException {
        if (!settings.seal().connector().equals(record.key())) {
            log.debug(
                    "Signal record {}-{}@{} is for {}, not this connector",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    record.key());
            return true;
        }
        SignalMessage message;
        try {
            message = KafkaSignal.of(settings.seal().connector(), record.value(), record.partition(), record.offset());
        } catch (IllegalArgumentException e) {
            log.warn(
                    "Signal record {}-{}@{} is ignored: {}",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    e.getMessage());
            return true;
        }
        while (!closed) {
            try {
                String lsn = emit(message);
                log.info(
                        "Signal {} ({}) of topic {} is in the WAL at {}",
                        message.id(),
                        message.type(),
                        record.topic(),
                        lsn);
                return true;
            } catch (SQLException e) {
                closeConnection();
                log.warn(
                        "Signal {} of topic {} could not be written into the source's WAL ({}); trying again in {} s",
                        message.id(),
                        record.topic(),
                        e.getMessage(),
                        RETRY.toSeconds());
                Thread.sleep(RETRY.toMillis());
            }
        }
        return false;
    }

    private String emit(SignalMessage message) throws SQLException {
        if (connection == null) {
            connection = settings.endpoint().connect("pglane-" + settings.connectorName() + "-signals");
        }
        try (PreparedStatement st = connection.prepareStatement(EMIT)) {
            st.setString(1, SignalMessage.PREFIX);
            st.setString(2, settings.seal().seal(SignalMessage.PREFIX, message.content()));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private void pause() {
        try {
            Thread.sleep(RETRY.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                log.debug("Closing the signal channel's connection failed", e);
            }
            connection = null;
        }
    }

    /** Stops the thread; a signal not yet in the WAL stays in the topic, uncommitted. */
    @Override
    public void close() {
        closed = true;
        Consumer<String, String> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
