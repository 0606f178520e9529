package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.local.kafka.WireRecord;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.stack.TaskMetrics;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.Marker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Options that change what the pipeline does, each through a real pipeline whose outcome shows the option at work:
 * the story fails if the option is ignored.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class OptionsIT {
    private static final Duration APPLIED = Duration.ofSeconds(90);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    /**
     * Source: every change on one topic ({@code topic.routing=single}), BEGIN markers, numerics as text. Sink:
     * progress in replication origins, an insert that finds its key taken overwrites ({@code conflict.policy=upsert}),
     * and a source {@code TRUNCATE ... CASCADE} empties a table only the target has that references the truncated one
     * ({@code truncate.cascade=true}); under the defaults the sink would stop at the first conflict, and the truncate
     * fail.
     */
    @Test
    @DisplayName(
            "topic.routing=single, marker.begin.enabled, numeric.mapping=string, progress.store=replication_origin,"
                    + " conflict.policy=upsert and truncate.cascade each do what they say")
    void routingMarkersProgressConflictsAndCascade() throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "opts_single";
        String parent = name + ".parent";
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + name,
                "CREATE TABLE " + parent + " (id int PRIMARY KEY, amount numeric(12,2))");
        SqlSession.execute(
                target,
                "CREATE SCHEMA " + name,
                "CREATE TABLE " + parent + " (id int PRIMARY KEY, amount numeric(12,2))",
                "CREATE TABLE " + name + ".notes (id int PRIMARY KEY, parent_id int REFERENCES " + parent + ")",
                // a row the source does not have, under a key the source is about to insert
                "INSERT INTO " + parent + " VALUES (1, -1)",
                "INSERT INTO " + name + ".notes VALUES (1, 1)");
        Map<String, String> sourceSettings =
                Map.of("topic.routing", "single", "marker.begin.enabled", "true", "numeric.mapping", "string");
        Map<String, String> sinkSettings = Map.of(
                "progress.store", "replication_origin",
                "conflict.policy", "upsert",
                "truncate.cascade", "true",
                // a single topic carries every table: the sink must be told which, and may write only those
                "source.topic.single.name", name + ".changes",
                "table.include.list", name + "\\.parent");
        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, target, name, sourceSettings, sinkSettings)) {
            try (SqlSession session = SqlSession.open(source)) {
                session.exec("INSERT INTO " + parent + " VALUES (1, 10.50), (2, 20.25)");
                session.commit();
                session.exec("UPDATE " + parent + " SET amount = amount + 1 WHERE id = 2");
                session.commit();
            }
            awaitRows(target, parent, "amount", "1:10.50,2:21.25", run);

            SqlSession.execute(source, "TRUNCATE " + parent + " CASCADE", "INSERT INTO " + parent + " VALUES (3, 30)");
            long last;
            try (SqlSession session = SqlSession.open(source)) {
                session.exec("INSERT INTO " + parent + " VALUES (4, 40)");
                last = session.xid();
                session.commit();
            }
            awaitRows(target, parent, "amount", "3:30.00,4:40.00", run);
            assertEquals(
                    "",
                    rowsOf(target, name + ".notes", "parent_id"),
                    "the target's own table referencing it emptied too");

            Topics seen = readUntilEndOf(run.source(), last);
            assertEquals(Set.of(name + ".changes"), seen.changeTopics, "every change on the single topic");
            assertEquals(seen.ends, seen.begins, "a BEGIN for each END: " + seen.ends);
            assertEquals(Schema.Type.STRING, seen.amountType, "numeric.mapping=string");
            try (SqlSession session = SqlSession.open(target)) {
                Object applied = session.queryValue(
                        "SELECT max(s.remote_lsn)::text FROM pg_replication_origin_status s JOIN"
                                + " pg_replication_origin o ON o.roident = s.local_id WHERE o.roname LIKE ?",
                        "pglane:" + run.sinkName() + ":%");
                assertTrue(
                        Lsn.parse((String) applied).compareTo(seen.lastEnd) >= 0,
                        "the sink's replication origins hold the last END " + seen.lastEnd + ": " + applied);
                // the other stories' sinks on this target keep theirs in the progress table
                boolean table =
                        (Boolean) session.queryValue("SELECT to_regclass('public.pglane_progress') IS NOT NULL");
                long rows = !table
                        ? 0
                        : ((Number) session.queryValue(
                                        "SELECT count(*) FROM public.pglane_progress WHERE sink_name = ?",
                                        run.sinkName()))
                                .longValue();
                assertEquals(0L, rows, "no progress row of " + run.sinkName());
            }
        }
    }

    /**
     * The sink writes into the tables {@code table.name.format} names, and under {@code conflict.policy=skip} an
     * insert that finds its key taken there keeps the target's row, with a WARN, where the default would stop.
     */
    @Test
    @DisplayName("table.name.format names the target tables; conflict.policy=skip keeps a taken key's row and says so")
    void namedTablesAndSkippedConflicts() throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "opts_named";
        SqlSession.execute(
                source, "CREATE SCHEMA " + name, "CREATE TABLE " + name + ".items (id int PRIMARY KEY, v text)");
        SqlSession.execute(
                target,
                "CREATE SCHEMA " + name,
                "CREATE TABLE " + name + ".copy_items (id int PRIMARY KEY, v text)",
                "INSERT INTO " + name + ".copy_items VALUES (1, 'theirs')");
        Map<String, String> sinkSettings =
                Map.of("table.name.format", "${schema}.copy_${table}", "conflict.policy", "skip");
        try (LogCapture log = LogCapture.start();
                SinkConnectorRun run = SinkConnectorRun.start(worker, source, target, name, Map.of(), sinkSettings)) {
            SqlSession.execute(source, "INSERT INTO " + name + ".items VALUES (1, 'ours'), (2, 'two')");
            SqlSession.execute(source, "INSERT INTO " + name + ".items VALUES (3, 'three')");
            awaitRows(target, name + ".copy_items", "v", "1:theirs,2:two,3:three", run);
            try (SqlSession session = SqlSession.open(target)) {
                assertEquals(
                        Boolean.FALSE,
                        session.queryValue("SELECT to_regclass(?) IS NOT NULL", name + ".items"),
                        "no table under the source's name");
            }
            String skipped = "Conflict insert_exists on " + name + ".copy_items: key";
            assertTrue(
                    log.lines().stream().anyMatch(l -> l.contains(skipped) && l.contains("kept the existing row")),
                    "a WARN of the kept row: "
                            + log.lines().stream()
                                    .filter(l -> l.contains("Conflict"))
                                    .toList());
        }
    }

    /**
     * A transaction four times larger than the sink's buffer ({@code buffer.max.bytes}, 1 MiB) spills to {@code
     * spill.directory}, and the spill files passing {@code spill.max.bytes} (1 MiB) pause the partitions the next
     * transaction does not wait for; small transactions go on around it, and the target ends equal to the source.
     */
    @Test
    @DisplayName(
            "a transaction larger than buffer.max.bytes spills to spill.directory, spill.max.bytes pauses the rest")
    void spillsToDisk(@TempDir Path spill) throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "opts_spill";
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + name,
                "CREATE TABLE " + name + ".big (id int PRIMARY KEY, body text)",
                "CREATE TABLE " + name + ".small (id int PRIMARY KEY, v int)");
        Map<String, String> sinkSettings = Map.of(
                "buffer.max.bytes", "1048576",
                "spill.max.bytes", "1048576",
                "spill.directory", spill.toString());
        try (SinkConnectorRun run = SinkConnectorRun.start(worker, source, target, name, Map.of(), sinkSettings);
                SqlSession large = SqlSession.open(source)) {
            large.exec(
                    "INSERT INTO " + name + ".big SELECT g, repeat(md5(g::text), 4) FROM generate_series(1, 20000) g");
            for (int i = 0; i < 50; i++) {
                SqlSession.execute(source, "INSERT INTO " + name + ".small VALUES (" + i + ", " + i + ")");
            }
            large.commit();
            for (int i = 50; i < 100; i++) {
                SqlSession.execute(source, "INSERT INTO " + name + ".small VALUES (" + i + ", " + i + ")");
            }
            run.awaitCatchUp(APPLIED);
            for (String table : List.of(name + ".big", name + ".small")) {
                assertEquals(fingerprint(source, table), fingerprint(target, table), table);
            }
            assertTrue(TaskMetrics.value(run.sinkName(), "spills-total") >= 1, "the large transaction spilled");
            assertTrue(
                    TaskMetrics.value(run.sinkName(), "spill-cap-pauses-total") >= 1,
                    "the spill files reached spill.max.bytes");
            try (Stream<Path> files = Files.walk(spill)) {
                assertTrue(
                        files.anyMatch(p -> p.getFileName().toString().contains(run.sinkName())),
                        "the connector's subdirectory is in spill.directory");
            }
        }
    }

    /**
     * The source's slot dropped while its connector is stopped: under {@code slot.recreate=allow_gap} the slot is made
     * again and streaming goes on, with a WARN naming the LSNs whose changes were lost (the default stops the task);
     * under {@code snapshot.mode=when_needed} every row is sent again, so the target has the lost ones too.
     */
    @Test
    @DisplayName("a lost slot: slot.recreate=allow_gap streams on past a WARNed gap, snapshot.mode=when_needed sends"
            + " every row again")
    void lostSlot() throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        for (String mode : List.of("allow_gap", "when_needed")) {
            String name = "opts_lost_" + mode;
            String table = name + ".items";
            SqlSession.execute(
                    source, "CREATE SCHEMA " + name, "CREATE TABLE " + table + " (id int PRIMARY KEY, v text)");
            Map<String, String> sourceSettings = mode.equals("allow_gap")
                    ? Map.of("slot.recreate", "allow_gap")
                    : Map.of("snapshot.mode", "when_needed");
            try (LogCapture log = LogCapture.start();
                    SinkConnectorRun run =
                            SinkConnectorRun.start(worker, source, target, name, sourceSettings, Map.of())) {
                SqlSession.execute(source, "INSERT INTO " + table + " VALUES (1, 'one'), (2, 'streamed')");
                awaitRows(target, table, "v", "1:one,2:streamed", run);

                run.source().stop();
                SqlSession.execute(
                        source,
                        "SELECT pg_drop_replication_slot('" + run.source().slot() + "')",
                        "INSERT INTO " + table + " VALUES (3, 'while the slot was gone')");
                run.source().startAgain();
                SqlSession.execute(source, "INSERT INTO " + table + " VALUES (4, 'after')");

                if (mode.equals("allow_gap")) {
                    awaitRows(target, table, "v", "1:one,2:streamed,4:after", run);
                    assertTrue(
                            log.lines().stream()
                                    .anyMatch(l -> l.contains("WARN")
                                            && l.contains(run.source().slot())
                                            && l.contains("not captured")),
                            "a WARN names the slot and the gap: "
                                    + log.lines().stream()
                                            .filter(l -> l.contains("WARN"))
                                            .toList());
                } else {
                    awaitRows(target, table, "v", "1:one,2:streamed,3:while the slot was gone,4:after", run);
                }
            }
        }
    }

    /**
     * {@code snapshot.mode=initial_only}: the existing rows arrive, then the source stops streaming and lets go of its
     * slot; a row written after that never leaves the server.
     */
    @Test
    @DisplayName("snapshot.mode=initial_only sends the existing rows, then streams no more")
    void initialOnly() throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "opts_once";
        String table = name + ".items";
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + name,
                "CREATE TABLE " + table + " (id int PRIMARY KEY, v text)",
                "INSERT INTO " + table + " VALUES (1, 'one'), (2, 'two')");
        try (LogCapture log = LogCapture.start();
                SinkConnectorRun run = SinkConnectorRun.start(
                        worker, source, target, name, Map.of("snapshot.mode", "initial_only"), Map.of())) {
            awaitRows(target, table, "v", "1:one,2:two", run);
            String stopped = "pglane source " + name + " has snapshot.mode=initial_only and its initial snapshot is"
                    + " on Kafka: it streams no more";
            Waits.until(
                    "the source says it streams no more",
                    APPLIED,
                    () -> log.lines().stream().anyMatch(l -> l.contains(stopped)));
            Waits.until(
                    "the slot is let go",
                    APPLIED,
                    () -> !slotActive(source, run.source().slot()));
            SqlSession.execute(source, "INSERT INTO " + table + " VALUES (3, 'after')");
            assertFalse(slotActive(source, run.source().slot()), "nothing reads the slot any more");
            assertEquals("1:one,2:two", rowsOf(target, table, "v"));
        }
    }

    private static boolean slotActive(PostgresNode source, String slot) throws SQLException {
        try (SqlSession session = SqlSession.open(source)) {
            return (Boolean) session.queryValue(
                    "SELECT coalesce(bool_or(active), false) FROM pg_replication_slots WHERE slot_name = ?", slot);
        }
    }

    /**
     * {@code synchronous.commit=on} on a target whose {@code synchronous_standby_names} names a standby that is not
     * there: the sink's commits wait for it (the rows stay invisible), where the default, {@code off}, would not
     * wait; once the setting is cleared they complete.
     */
    @Test
    @DisplayName("synchronous.commit=on: the apply waits for the synchronous standby the target names")
    void synchronousCommit() throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.another(version);
        String name = "opts_sync";
        String table = name + ".items";
        SqlSession.execute(source, "CREATE SCHEMA " + name, "CREATE TABLE " + table + " (id int PRIMARY KEY, v text)");
        SqlSession.execute(target, "CREATE SCHEMA " + name);
        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, target, name, Map.of(), Map.of("synchronous.commit", "on"))) {
            SqlSession.execute(source, "INSERT INTO " + table + " VALUES (1, 'first')");
            awaitRows(target, table, "v", "1:first", run);

            SqlSession.execute(
                    target, "ALTER SYSTEM SET synchronous_standby_names = 'absent'", "SELECT pg_reload_conf()");
            try {
                SqlSession.execute(source, "INSERT INTO " + table + " VALUES (2, 'waits')");
                Waits.until("an apply session waits for the synchronous standby", APPLIED, () -> {
                    try (SqlSession session = SqlSession.open(target)) {
                        return ((Number) session.queryValue(
                                                "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'"))
                                        .longValue()
                                > 0;
                    }
                });
                assertEquals("1:first", rowsOf(target, table, "v"), "the waiting commit's row is not visible");
            } finally {
                SqlSession.execute(target, "ALTER SYSTEM RESET synchronous_standby_names", "SELECT pg_reload_conf()");
            }
            awaitRows(target, table, "v", "1:first,2:waits", run);
        }
    }

    /** What the source's topics held, read up to the END of a transaction. */
    private static final class Topics {
        final Set<String> changeTopics = new HashSet<>();
        int begins;
        int ends;
        Lsn lastEnd = Lsn.INVALID;
        Schema.Type amountType;
    }

    private static Topics readUntilEndOf(SourceConnectorRun run, long xid) {
        Topics seen = new Topics();
        boolean[] done = {false};
        run.reader()
                .readUntil(
                        record -> {
                            if (record instanceof WireRecord.Change change) {
                                seen.changeTopics.add(change.topic());
                                if (change.event().after() != null) {
                                    seen.amountType = change.event()
                                            .after()
                                            .schema()
                                            .field("amount")
                                            .schema()
                                            .type();
                                }
                            } else if (record instanceof WireRecord.MarkerRecord marker) {
                                if (marker.marker() instanceof Marker.Begin) {
                                    seen.begins++;
                                } else if (marker.marker() instanceof Marker.End end) {
                                    seen.ends++;
                                    seen.lastEnd = end.endLsn();
                                    done[0] |= end.xid() == xid;
                                }
                            }
                        },
                        () -> done[0],
                        APPLIED,
                        () -> "reading up to the END of " + xid);
        return seen;
    }

    /**
     * Waits until {@code table} on {@code target} holds exactly {@code rows} ({@code id:column}), failing at once if a
     * connector fails.
     */
    private static void awaitRows(PostgresNode target, String table, String column, String rows, SinkConnectorRun run) {
        String[] last = {""};
        try {
            Waits.until("the target's " + table + " holds " + rows, APPLIED, () -> {
                for (String connector : List.of(run.source().topicPrefix(), run.sinkName())) {
                    assertFalse(
                            worker.rest().status(connector).hasFailed(),
                            () -> worker.rest().status(connector).describe());
                }
                try {
                    last[0] = rowsOf(target, table, column);
                } catch (SQLException e) {
                    return false; // not created yet
                }
                return last[0].equals(rows);
            });
        } catch (IllegalStateException e) {
            throw new AssertionError(e.getMessage() + "; it holds " + last[0], e);
        }
    }

    /** The row count and an md5 of every row of {@code table}, in id order. */
    private static String fingerprint(PostgresNode server, String table) throws SQLException {
        try (SqlSession session = SqlSession.open(server)) {
            return (String) session.queryValue(
                    "SELECT count(*) || ' ' || md5(coalesce(string_agg(t::text, ',' ORDER BY t.id), '')) FROM " + table
                            + " t");
        }
    }

    /** The rows of {@code table} as {@code id:column} in id order, comma-separated. */
    private static String rowsOf(PostgresNode server, String table, String column) throws SQLException {
        try (SqlSession session = SqlSession.open(server)) {
            return (String) session.queryValue(
                    "SELECT coalesce(string_agg(id || ':' || " + column + ", ',' ORDER BY id), '') FROM " + table);
        }
    }
}
