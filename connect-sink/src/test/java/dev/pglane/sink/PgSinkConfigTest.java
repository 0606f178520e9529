package dev.pglane.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.pglane.connect.config.DatabaseSettings;
import dev.pglane.docs.ConfigDocsMarkdown;
import dev.pglane.docs.ValidationErrors;
import dev.pglane.sink.apply.ConflictPolicy;
import dev.pglane.sink.apply.SynchronousCommit;
import dev.pglane.sink.progress.ProgressStore;
import dev.pglane.sink.target.TableName;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PgSinkConfigTest {
    static Map<String, String> minimal() {
        Map<String, String> props = new HashMap<>();
        props.put("name", "orders-sink");
        props.put(DatabaseSettings.HOST, "target.example");
        props.put(DatabaseSettings.NAME, "shop");
        props.put(DatabaseSettings.USER, "apply");
        props.put(PgSinkConfig.SOURCE_TOPIC_PREFIX, "pglane");
        return props;
    }

    static PgSinkConfig config(String key, String value) {
        Map<String, String> props = minimal();
        props.put(key, value);
        return new PgSinkConfig(props);
    }

    @Test
    void defaultsThroughTypedAccessors() {
        PgSinkConfig config = new PgSinkConfig(minimal());
        assertEquals("target.example:5432", config.database().address());
        assertEquals("pglane.transactions", config.markerTopic());
        assertEquals(4, config.applyWorkers());
        assertEquals(1000, config.applyBatchMaxRows());
        assertEquals(ConflictPolicy.ERROR, config.conflictPolicy());
        assertEquals(SynchronousCommit.OFF, config.synchronousCommit());
        assertEquals(Duration.ofMillis(500), config.deadlockCheckInterval());
        assertEquals(10, config.applyRetryMax());
        assertEquals(Duration.ofSeconds(1), config.retryBackoff());
        assertEquals(268_435_456L, config.bufferMaxBytes());
        assertEquals(10_000, config.bufferMaxTransactions());
        assertEquals(Path.of(System.getProperty("user.home"), ".pglane", "spill"), config.spillDirectory());
        assertEquals(10_737_418_240L, config.spillMaxBytes());
        assertEquals(ProgressStore.TABLE, config.progressStore());
        assertEquals(new TableName("public", "pglane_progress"), config.progressTable());
        assertEquals("${schema}.${table}", config.tableNameFormat());
        assertFalse(config.autoCreate());
        assertFalse(config.autoEvolve());
    }

    @Test
    void typedAccessorsReadSetValues() {
        Map<String, String> props = minimal();
        props.put(PgSinkConfig.CONFLICT_POLICY, "Upsert");
        props.put(PgSinkConfig.SYNCHRONOUS_COMMIT, "remote_apply");
        props.put(PgSinkConfig.PROGRESS_STORE, "replication_origin");
        props.put(PgSinkConfig.PROGRESS_TABLE, "pglane_progress");
        props.put(BufferingSettings.SPILL_DIRECTORY, "/var/spill");
        props.put(PgSinkConfig.APPLY_WORKERS, "1");
        PgSinkConfig config = new PgSinkConfig(props);
        assertEquals(ConflictPolicy.UPSERT, config.conflictPolicy());
        assertEquals(SynchronousCommit.REMOTE_APPLY, config.synchronousCommit());
        assertEquals(ProgressStore.REPLICATION_ORIGIN, config.progressStore());
        assertEquals(new TableName("public", "pglane_progress"), config.progressTable());
        assertEquals(Path.of("/var/spill"), config.spillDirectory());
        assertEquals(1, config.applyWorkers());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "conflict.policy|sometimes|must be one of error, skip, upsert",
                "synchronous.commit|remote-write|must be one of off, local, remote_write, on, remote_apply",
                "progress.store|origin|must be one of table, replication_origin",
                "progress.table|Public.Progress|must be table or schema.table",
                "progress.table|a.b.c|must be table or schema.table",
                "table.name.format|${schema}.target|must be a name containing ${table}",
                "source.topic.prefix|bad prefix!|topic prefix 'bad prefix!' contains ' '",
                "apply.workers|0|Value must be at least 1",
                "apply.workers|65|Value must be no more than 64",
                "buffer.max.bytes|1024|Value must be at least 1048576",
                "database.sslmode|on|must be one of disable, allow, prefer, require, verify_ca, verify_full",
            })
    void badValueNamesKeyAndValue(String key, String value, String rule) {
        ValidationErrors.assertRejected(() -> config(key, value), key, value, rule);
    }

    @Test
    void everyKeyHasGroupOrderWidthAndDisplayName() {
        assertEquals(List.of(), ConfigDocsMarkdown.keysWithoutLayout(PgSinkConfig.CONFIG_DEF));
        assertEquals(
                List.of("Connection", "Input", "Apply", "Buffering", "Progress", "Tables"),
                PgSinkConfig.CONFIG_DEF.groups());
    }

    @Test
    void conflictPolicyRecommendsItsValues() {
        var key = PgSinkConfig.CONFIG_DEF.configKeys().get(PgSinkConfig.CONFLICT_POLICY);
        assertEquals(List.of("error", "skip", "upsert"), key.recommender.validValues(key.name, Map.of()));
    }
}
