package dev.pglane.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.docs.ConfigDocsMarkdown;
import dev.pglane.docs.ValidationErrors;
import dev.pglane.source.reader.LogicalMessages;
import dev.pglane.source.reader.StreamingMode;
import dev.pglane.source.reader.TopicRouting;
import dev.pglane.wire.types.NumericMapping;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.postgresql.jdbc.SslMode;

class PgSourceConfigTest {
    static Map<String, String> minimal() {
        Map<String, String> props = new HashMap<>();
        props.put(DatabaseSettings.HOST, "db.example");
        props.put(DatabaseSettings.NAME, "shop");
        props.put(DatabaseSettings.USER, "capture");
        props.put(PgSourceConfig.TOPIC_PREFIX, "pglane");
        return props;
    }

    static PgSourceConfig config(String key, String value) {
        Map<String, String> props = minimal();
        props.put(key, value);
        return new PgSourceConfig(props);
    }

    @Test
    void defaultsThroughTypedAccessors() {
        PgSourceConfig config = new PgSourceConfig(minimal());
        assertEquals(5432, config.database().port());
        assertEquals(SslMode.PREFER, config.database().tls().mode());
        assertEquals(Duration.ofSeconds(10), config.database().connectTimeout());
        assertEquals("pglane", config.slotName());
        assertEquals("pglane", config.publicationName());
        assertTrue(config.publicationCreate());
        assertTrue(config.tableFilter().capturesAll());
        assertEquals(StreamingMode.OFF, config.streamingMode());
        assertEquals(LogicalMessages.DROP, config.logicalMessages());
        assertEquals(Duration.ofSeconds(10), config.statusInterval());
        assertEquals(Optional.empty(), config.heartbeatInterval());
        assertEquals(Duration.ofMillis(500), config.reconnectBackoffInitial());
        assertEquals(Duration.ofSeconds(30), config.reconnectBackoffMax());
        assertEquals(TopicRouting.PER_TABLE, config.topicRouting());
        assertEquals("pglane.transactions", config.topicNames().transactionsTopic());
        assertFalse(config.topicNames().isSingleTopic());
        assertFalse(config.markerBeginEnabled());
        assertEquals(Runtime.getRuntime().availableProcessors(), config.decoderLanes());
        assertEquals(64, config.decoderBatchSize());
        assertEquals(16, config.decoderQueueCapacity());
        assertEquals(2048, config.pollBatchMaxRecords());
        assertEquals(NumericMapping.PRECISE, config.valueMappings().numeric());
    }

    @Test
    void typedAccessorsReadSetValues() {
        Map<String, String> props = minimal();
        props.put(DatabaseSettings.SSLMODE, "verify_full");
        props.put(PgSourceConfig.HEARTBEAT_INTERVAL_MS, "5000");
        props.put(PgSourceConfig.TOPIC_ROUTING, "single");
        props.put(PgSourceConfig.TOPIC_SINGLE_NAME, "all.changes");
        props.put(DecodingSettings.DECODER_LANES, "3");
        props.put(PgSourceConfig.STREAMING_MODE, "ON");
        props.put(DecodingSettings.NUMERIC_MAPPING, "double");
        PgSourceConfig config = new PgSourceConfig(props);
        assertEquals(SslMode.VERIFY_FULL, config.database().tls().mode());
        assertEquals(Optional.of(Duration.ofSeconds(5)), config.heartbeatInterval());
        assertEquals(TopicRouting.SINGLE, config.topicRouting());
        assertEquals("all.changes", config.topicNames().changeTopic("public", "orders"));
        assertEquals(3, config.decoderLanes());
        assertEquals(StreamingMode.ON, config.streamingMode());
        assertEquals(NumericMapping.DOUBLE, config.valueMappings().numeric());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "database.sslmode|verify-full|must be one of disable, allow, prefer, require, verify_ca, verify_full",
                "streaming.mode|parallel|must be one of off, on",
                "logical.messages|keep|must be one of drop, emit",
                "topic.routing|per-table|must be one of per_table, single",
                "numeric.mapping|float|must be one of precise, string, double",
                "slot.name|Pglane|must be 1 to 63 lower-case letters, digits or underscores",
                "slot.name|pglane-slot|must be 1 to 63 lower-case letters, digits or underscores",
                "publication.name|1pub|must be an unquoted PostgreSQL identifier",
                "topic.prefix|pg lane|topic prefix 'pg lane' contains ' '; Kafka topic names allow only [a-zA-Z0-9._-]",
                "topic.single.name|a/b|must be empty or 1 to 249 characters",
                "table.include.list|public.(orders|not a valid regular expression: Unclosed group",
                "database.port|70000|Value must be no more than 65535",
                "decoder.lanes|65|Value must be no more than 64",
                "decoder.batch.size|0|Value must be at least 1",
                "heartbeat.interval.ms|-1|Value must be at least 0",
            })
    void badValueNamesKeyAndValue(String key, String value, String rule) {
        ValidationErrors.assertRejected(() -> config(key, value), key, value, rule);
    }

    @Test
    void singleTopicDefaultsUnderThePrefix() {
        assertEquals(
                "pglane.changes",
                config(PgSourceConfig.TOPIC_ROUTING, "single").topicNames().changeTopic("s", "t"));
    }

    @Test
    void slotNameAllowsSixtyThreeCharacters() {
        assertEquals(
                "a".repeat(63), config(PgSourceConfig.SLOT_NAME, "a".repeat(63)).slotName());
        assertThrows(ConfigException.class, () -> config(PgSourceConfig.SLOT_NAME, "a".repeat(64)));
    }

    @Test
    void requiredKeysHaveNoDefault() {
        Map<String, String> props = minimal();
        props.remove(PgSourceConfig.TOPIC_PREFIX);
        ConfigException e = assertThrows(ConfigException.class, () -> new PgSourceConfig(props));
        assertTrue(e.getMessage().contains("topic.prefix"), e.getMessage());
    }

    @Test
    void everyKeyHasGroupOrderWidthAndDisplayName() {
        assertEquals(List.of(), ConfigDocsMarkdown.keysWithoutLayout(PgSourceConfig.CONFIG_DEF));
        assertEquals(
                List.of("Connection", "Replication", "Topics", "Decoding", "Snapshot", "Columns"),
                PgSourceConfig.CONFIG_DEF.groups());
    }

    @Test
    void enumKeysRecommendTheirValues() {
        var key = PgSourceConfig.CONFIG_DEF.configKeys().get(PgSourceConfig.TOPIC_ROUTING);
        assertEquals(List.of("per_table", "single"), key.recommender.validValues(key.name, Map.of()));
    }

    @Test
    void aWalMessageKeyIsEmptyOrLongEnoughAndAShortOneIsNeverEchoed() {
        assertEquals(null, new PgSourceConfig(minimal()).walMessagesKey(), "empty: the connector keeps its own");
        assertEquals(
                "sixteen chars ok",
                config(SnapshotSettings.WAL_MESSAGES_KEY, "sixteen chars ok").walMessagesKey());
        ConfigException e =
                assertThrows(ConfigException.class, () -> config(SnapshotSettings.WAL_MESSAGES_KEY, "short-secret"));
        assertTrue(e.getMessage().contains("at least 16 characters"), e.getMessage());
        assertFalse(e.getMessage().contains("short-secret"), e.getMessage());
    }
}
