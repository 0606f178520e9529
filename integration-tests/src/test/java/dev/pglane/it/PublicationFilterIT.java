package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.pglane.local.kafka.WireRecord;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A publication of one's own that keeps rows and columns out (PostgreSQL 15+: a row filter and a column list): the
 * snapshot sends what the stream would, so what the publication keeps out never reaches the target, existing rows
 * included. Runs on 15, the first major with both, and 17, whatever {@code pglane.pg.versions} says. And the
 * connector's own column rules, which keep columns out whatever the publication and the major.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class PublicationFilterIT {
    private static final Duration WAIT = Duration.ofSeconds(180);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    static List<PostgresVersion> majors() {
        return List.of(PostgresVersion.V15, PostgresVersion.V17);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("majors")
    @DisplayName("a publication FOR TABLE customers WHERE (region = 'eu') over 1,000 rows, half of them us, and cards"
            + " with a column list: the snapshot and the stream bring the target only the eu rows and only the"
            + " listed columns")
    void theSnapshotSendsOnlyWhatThePublicationPublishes(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "pubfilter_pg" + version.major();
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + name,
                // region in the key: a row filter of a publication that publishes updates may name only replica
                // identity columns
                "CREATE TABLE " + name + ".customers (id integer, region text, name text NOT NULL,"
                        + " PRIMARY KEY (id, region))",
                "INSERT INTO " + name + ".customers SELECT g, CASE WHEN g % 2 = 0 THEN 'us' ELSE 'eu' END,"
                        + " 'customer ' || g FROM generate_series(1, 1000) g",
                "CREATE TABLE " + name + ".cards (id integer PRIMARY KEY, holder text, number text, note text)",
                "INSERT INTO " + name + ".cards SELECT g, 'holder ' || g, '4000-0000-0000-' || g, 'note ' || g"
                        + " FROM generate_series(1, 300) g",
                "CREATE PUBLICATION " + name + " FOR TABLE " + name + ".customers WHERE (region = 'eu'), " + name
                        + ".cards (id, holder, note)");
        SqlSession.execute(target, "CREATE SCHEMA " + name);

        Map<String, String> sourceConfig =
                Map.of("snapshot.mode", "initial", "snapshot.chunk.rows", "120", "publication.create", "false");
        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, target, name, sourceConfig, Map.of("apply.workers", "2"))) {
            SqlSession.execute(
                    source,
                    "INSERT INTO " + name + ".customers VALUES (1001, 'eu', 'new eu'), (1002, 'us', 'new us')",
                    // a us row becomes eu: pgoutput sends it as an INSERT
                    "UPDATE " + name + ".customers SET region = 'eu' WHERE id = 2",
                    "INSERT INTO " + name + ".cards VALUES (301, 'new holder', '4000-0000-0000-0301', 'new')");
            Waits.until(
                    "the snapshot and the changes reach the target",
                    WAIT,
                    () -> countIfCreated(target, name + ".customers") >= 502
                            && countIfCreated(target, name + ".cards") >= 301);
            run.awaitCatchUp(WAIT);
        }
        assertEquals(502L, count(target, name + ".customers"), "500 eu rows, the new eu row and the one moved to eu");
        assertEquals(0L, count(target, name + ".customers WHERE region <> 'eu'"), "no us row");
        assertEquals(301L, count(target, name + ".cards"));
        try (SqlSession session = SqlSession.open(target)) {
            assertEquals(
                    "id,holder,note",
                    session.queryValue(
                            "SELECT string_agg(column_name, ',' ORDER BY ordinal_position)"
                                    + " FROM information_schema.columns WHERE table_schema = ? AND table_name = 'cards'",
                            name),
                    "only the listed columns");
            assertEquals(
                    "holder 7|note 7",
                    session.queryValue("SELECT holder || '|' || note FROM " + name + ".cards WHERE id = 7"));
        }
    }

    /**
     * The connector's own column rules, on the oldest major, whose publications cannot keep columns out: a column
     * excluded, one hashed with a salt, one replaced. Neither the snapshot's records nor the stream's carry the
     * excluded column or a clear value of the masked ones, and the sink leaves the target's own values of the excluded
     * column as they are, also when it updates the row.
     */
    @ParameterizedTest(name = "publication.column.lists={0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("column.exclude.list, column.mask.hash.list and column.mask.replace.list over existing rows and"
            + " changes: no record carries the excluded column or a masked value, the target keeps its own; with"
            + " publication.column.lists the publication does not publish the excluded column")
    void columnRulesKeepColumnsOutOfEveryRecord(boolean columnLists) throws Exception {
        PostgresVersion version = columnLists ? PostgresVersion.V17 : PostgresVersion.V14;
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        String name = "colrules_pg" + version.major();
        String table = name + ".people";
        String ddl = "CREATE TABLE " + table + " (id integer PRIMARY KEY, name text, email text, ssn text, note text)";
        SqlSession.execute(
                source,
                "CREATE SCHEMA " + name,
                ddl,
                "INSERT INTO " + table
                        + " SELECT g, 'name ' || g, 'p' || g || '@example.com', 'ssn-' || g, 'note ' || g"
                        + " FROM generate_series(1, 200) g");
        // the target's copy holds a value of its own in the excluded column
        SqlSession.execute(
                target,
                "CREATE SCHEMA " + name,
                ddl,
                "INSERT INTO " + table + " (id, ssn) VALUES (7, 'kept on the target')");
        Map<String, String> sourceConfig = Map.of(
                "publication.column.lists",
                Boolean.toString(columnLists),
                "snapshot.mode",
                "initial",
                "snapshot.chunk.rows",
                "80",
                "column.exclude.list",
                name + "\\.people\\.ssn",
                "column.mask.hash.list",
                ".*\\.email",
                "column.mask.hash.salt",
                SALT,
                "column.mask.replace.list",
                name + "\\.people\\.note");
        List<WireRecord.Change> changes = new ArrayList<>();
        try (SinkConnectorRun run =
                SinkConnectorRun.start(worker, source, target, name, sourceConfig, Map.of("apply.workers", "2"))) {
            SqlSession.execute(
                    source,
                    "INSERT INTO " + table + " VALUES (201, 'name 201', 'p201@example.com', 'ssn-201', 'note 201')",
                    "UPDATE " + table
                            + " SET name = 'renamed', email = 'new7@example.com', ssn = 'ssn-new' WHERE id = 7");
            if (columnLists) {
                try (SqlSession session = SqlSession.open(source)) {
                    assertEquals(
                            "{id,name,email,note}",
                            session.queryValue(
                                    "SELECT attnames::text FROM pg_publication_tables WHERE pubname = ?"
                                            + " AND tablename = 'people'",
                                    name),
                            "the columns the publication publishes: the excluded one stays on the server");
                }
            }
            Waits.until("the snapshot and the changes reach the target", WAIT, () -> count(target, table) >= 201);
            run.awaitCatchUp(WAIT);
            run.source()
                    .reader()
                    .readQuietFor(
                            record -> {
                                if (record instanceof WireRecord.Change change
                                        && change.topic().endsWith(".people")) {
                                    changes.add(change);
                                }
                            },
                            Duration.ofSeconds(2));
        }
        assertEquals(202, changes.size(), "200 snapshot rows, an insert and an update");
        assertMasked(changes);
        assertTargetKeptItsOwn(target, table);
    }

    /** No record carries the excluded column; every email is hashed and every note replaced. */
    private static void assertMasked(List<WireRecord.Change> changes) throws NoSuchAlgorithmException {
        for (WireRecord.Change change : changes) {
            Struct after = change.event().after();
            assertNull(after.schema().field("ssn"), () -> "a record carries the excluded column: " + after);
            String email =
                    "renamed".equals(after.get("name")) ? "new7@example.com" : "p" + after.get("id") + "@example.com";
            assertEquals(sha256(SALT + email), after.get("email"), () -> "email not hashed: " + after);
            assertEquals("****", after.get("note"), () -> "note not replaced: " + after);
        }
    }

    /** The update wrote the masked values and left the target's own value of the excluded column. */
    private static void assertTargetKeptItsOwn(PostgresNode target, String table) throws Exception {
        try (SqlSession session = SqlSession.open(target)) {
            assertEquals(
                    "renamed|" + sha256(SALT + "new7@example.com") + "|kept on the target|****",
                    session.queryValue(
                            "SELECT name || '|' || email || '|' || ssn || '|' || note FROM " + table + " WHERE id = 7"),
                    "the update wrote the hashed email and left the target's ssn");
            assertEquals(
                    sha256(SALT + "p8@example.com"),
                    session.queryValue("SELECT email FROM " + table + " WHERE id = 8"),
                    "a snapshot row's email, hashed");
            assertEquals(
                    0L,
                    ((Number) session.queryValue("SELECT count(ssn) FROM " + table + " WHERE id <> 7")).longValue(),
                    "no ssn reached the target");
        }
    }

    private static final String SALT = "pepper-for-the-test";

    /** The lower-case hex SHA-256 of {@code text}, as the source masks. */
    private static String sha256(String text) throws NoSuchAlgorithmException {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** The table's rows, 0 before the sink created it. */
    private static long countIfCreated(PostgresNode node, String table) throws SQLException {
        try (SqlSession session = SqlSession.open(node)) {
            if (session.queryValue("SELECT to_regclass(?)::text", table) == null) {
                return 0;
            }
        }
        return count(node, table);
    }

    private static long count(PostgresNode node, String from) throws SQLException {
        try (SqlSession session = SqlSession.open(node)) {
            return ((Number) session.queryValue("SELECT count(*) FROM " + from)).longValue();
        }
    }
}
