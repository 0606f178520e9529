package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.verify.ComparisonReport;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Schema changes on the source while the pipeline streams, each with the effect the README documents: a column added
 * reaches the target through {@code auto.evolve}; one added with a default is added on the target first, as the
 * README says, since the source sends no change for the rows the default fills; a column dropped on the source stays
 * on the target, NULL in rows that arrive afterwards, until dropped there; a table created under the table lists joins
 * the publication by itself and arrives whole ({@code snapshot.new.tables}); a column widened to bigint is widened on
 * the target by {@code auto.evolve}, a value beyond integer included; a table created and loaded without a key that
 * gains one afterwards gets it on the target too. No change is lost around the DDL.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SchemaChangesIT {
    private static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @Test
    @DisplayName("columns added, added with a default, dropped and widened, and a table created while streaming:"
            + " the target ends equal to the source")
    void schemaChangesWhileStreaming() throws Exception {
        PostgresVersion version = SourceServers.defaultVersion().get(0);
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "ddl_pg" + version.major();
        String items = name + ".items";
        String extra = name + ".extra";
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + name,
                "CREATE TABLE " + items + " (id int PRIMARY KEY, v text)",
                "INSERT INTO " + items + " SELECT g, 'v' || g FROM generate_series(1, 100) g");
        SqlSession.execute(target, "CREATE SCHEMA " + name);
        Map<String, String> sourceSettings = Map.of("snapshot.mode", "initial", "snapshot.new.tables", "true");
        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, target, name, sourceSettings, Map.of("auto.evolve", "true"))) {
            SqlSession.execute(
                    source,
                    "ALTER TABLE " + items + " ADD COLUMN note text",
                    "INSERT INTO " + items + " SELECT g, 'v' || g, 'noted' FROM generate_series(101, 150) g",
                    "UPDATE " + items + " SET note = 'later' WHERE id % 10 = 0");
            run.awaitCatchUp(WAIT);

            // a default fills the existing rows without a change to send: the target gets the column first
            String withDefault = "ALTER TABLE " + items + " ADD COLUMN qty int NOT NULL DEFAULT 7";
            SqlSession.execute(target, withDefault);
            SqlSession.execute(
                    source,
                    withDefault,
                    "UPDATE " + items + " SET qty = 8 WHERE id % 3 = 0",
                    "INSERT INTO " + items
                            + " (id, v, note) SELECT g, 'v', 'defaulted' FROM generate_series(151, 170) g");

            SqlSession.execute(
                    source,
                    "ALTER TABLE " + items + " DROP COLUMN v",
                    "INSERT INTO " + items + " (id, note) SELECT g, 'after the drop' FROM generate_series(171, 190) g",
                    "CREATE TABLE " + extra + " (id int PRIMARY KEY, label text)",
                    "INSERT INTO " + extra + " SELECT g, 'extra ' || g FROM generate_series(1, 300) g");
            run.awaitCatchUp(WAIT);
            try (SqlSession onTarget = SqlSession.open(target)) {
                assertEquals(
                        0L,
                        ((Number) onTarget.queryValue(
                                        "SELECT count(v) FROM " + items + " WHERE note = 'after the drop'"))
                                .longValue(),
                        "rows that arrive after the drop leave the target's old column NULL");
            }
            Waits.until("the table created under the lists arrives whole", WAIT, () -> count(target, extra) == 300);
            SqlSession.execute(source, "UPDATE " + extra + " SET label = 'changed' WHERE id % 2 = 0");
            run.awaitCatchUp(WAIT);

            keyGainedLater(source, target, run, name + ".later_key");

            SqlSession.execute(target, "ALTER TABLE " + items + " DROP COLUMN v");
            ComparisonReport report = run.compare();
            assertTrue(report.isEqual(), () -> "the target differs from the source:\n" + report.summary());
            assertEquals(190L, count(target, items));

            // a wider type: auto.evolve widens the target's column before the value that needs it
            SqlSession.execute(
                    source,
                    "ALTER TABLE " + items + " ALTER COLUMN qty TYPE bigint",
                    "UPDATE " + items + " SET qty = 5000000000 WHERE id = 1");
            run.awaitCatchUp(WAIT);
            ComparisonReport last = run.compare();
            assertTrue(last.isEqual(), () -> "the target differs from the source:\n" + last.summary());
            try (SqlSession onTarget = SqlSession.open(target)) {
                assertEquals(
                        "bigint",
                        onTarget.queryValue("SELECT format_type(atttypid, atttypmod) FROM pg_attribute"
                                + " WHERE attrelid = '" + items + "'::regclass AND attname = 'qty'"));
            }
        }
    }

    /**
     * A table created and loaded without a key, which it gains afterwards (as {@code pgbench -i} does): the sink created
     * it keyless, and auto.evolve carries the key.
     */
    private static void keyGainedLater(PostgresNode source, PostgresNode target, SinkConnectorRun run, String laterKey)
            throws Exception {
        SqlSession.execute(
                source,
                "CREATE TABLE " + laterKey + " (id int, label text)",
                "INSERT INTO " + laterKey + " SELECT g, 'loaded' FROM generate_series(1, 50) g");
        Waits.until("the keyless table arrives whole", WAIT, () -> count(target, laterKey) == 50);
        SqlSession.execute(
                source,
                "ALTER TABLE " + laterKey + " ADD PRIMARY KEY (id)",
                "UPDATE " + laterKey + " SET label = 'keyed' WHERE id % 2 = 0");
        run.awaitCatchUp(WAIT);
        try (SqlSession onTarget = SqlSession.open(target)) {
            assertEquals(
                    "id",
                    onTarget.queryValue("SELECT string_agg(a.attname, ',') FROM pg_index i JOIN pg_attribute a"
                            + " ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)"
                            + " WHERE i.indrelid = '" + laterKey + "'::regclass AND i.indisprimary"),
                    "the target table got the key the source gained");
        }
    }

    private static long count(PostgresNode server, String table) throws Exception {
        try (SqlSession session = SqlSession.open(server)) {
            Object count = session.queryValue("SELECT count(*) FROM pg_catalog.pg_tables t WHERE t.schemaname || '.'"
                    + " || t.tablename = '" + table + "'");
            if (((Number) count).longValue() == 0) {
                return -1;
            }
            return ((Number) session.queryValue("SELECT count(*) FROM " + table)).longValue();
        }
    }
}
