package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.kafka.TopicFormat;
import dev.pglane.local.kafka.TopicReader;
import dev.pglane.local.kafka.WireRecord;
import dev.pglane.local.pipeline.CatchUp;
import dev.pglane.local.pipeline.Pipeline;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.local.verify.ComparisonReport;
import dev.pglane.local.verify.DatabaseComparator;
import dev.pglane.local.workload.ChangeWorkload;
import dev.pglane.local.workload.WorkloadSchema;
import dev.pglane.wire.marker.Marker;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * The wait for a sink to catch up, with the test playing the sink: it copies the source's tables to the target by
 * hand and writes the progress row itself. The wait must not return while the progress names an earlier
 * transaction, and must return once it names the last one; the copy of the mixed workload's tables compares equal.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CatchUpIT {
    private static final String SCHEMA = "catch_up";
    private static final String SINK = "by_hand";
    private static final String PROGRESS_TABLE = "public.pglane_progress";

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @Test
    @DisplayName("the wait ends exactly when the progress reaches the END of the source's last transaction")
    void waitsForTheLastTransaction() throws Exception {
        PostgresVersion version = PostgresVersion.fromProperty();
        PostgresNode source = servers.of(version);
        PostgresNode target = servers.targetOf(version);
        WorkloadSchema schema = new WorkloadSchema(SCHEMA);
        ChangeWorkload workload = new ChangeWorkload(source.jdbcUrl(), schema);
        workload.createTables();
        SqlSession.execute(target, schema.ddl().toArray(String[]::new));
        SqlSession.execute(
                target,
                "CREATE TABLE " + PROGRESS_TABLE + " (sink_name text, source_server text, end_lsn pg_lsn,"
                        + " commit_ts timestamptz, xid bigint, PRIMARY KEY (sink_name, source_server))");

        try (SourceConnectorRun run =
                SourceConnectorRun.start(worker, source, SCHEMA, Map.of("table.include.list", SCHEMA + "\\..*"))) {
            workload.runTransactions(2, 40);
            long blobRows = workload.largeTransaction(1 << 20);
            List<Marker.End> ends = endsUpToBlobs(run, blobRows);
            Marker.End last = ends.get(ends.size() - 1);
            Marker.End beforeLast = ends.get(ends.size() - 2);
            Pipeline pipeline = new Pipeline(
                    source.jdbcUrl(),
                    target.jdbcUrl(),
                    worker.bootstrapServers(),
                    run.slot(),
                    SCHEMA,
                    SINK,
                    PROGRESS_TABLE,
                    TopicFormat.JSON);

            writeProgress(target, beforeLast);
            IllegalStateException early = assertThrows(
                    IllegalStateException.class, () -> new CatchUp(pipeline, () -> {}).await(Duration.ofSeconds(5)));
            assertTrue(early.getMessage().contains("has not caught up"), early.getMessage());
            assertTrue(early.getMessage().contains(last.endLsn().toString()), early.getMessage());

            writeProgress(target, last);
            CatchUp.Result caughtUp = new CatchUp(pipeline, () -> {}).await(Duration.ofSeconds(60));
            assertEquals(last.endLsn(), caughtUp.committed().lastChangeEnd());
            assertEquals(last.endLsn(), caughtUp.progress().endLsn());
            assertEquals(last.xid(), caughtUp.progress().xid());
            assertEquals(ends.size(), caughtUp.committed().transactions(), "transactions with changes");
            assertEquals(
                    ends.stream().mapToLong(Marker.End::eventCount).sum(),
                    caughtUp.committed().changes());

            copyTables(source, target, schema);
            ComparisonReport report = new DatabaseComparator(source.jdbcUrl(), target.jdbcUrl()).compare();
            assertTrue(report.isEqual(), report::summary);
        }
    }

    /**
     * The ENDs with changes, in stream order, up to that of the large transaction (the last one): the one that
     * inserted {@code blobRows} rows into blobs (the mixed workload writes blobs too, a row at a time).
     */
    private static List<Marker.End> endsUpToBlobs(SourceConnectorRun run, long blobRows) {
        List<Marker.End> ends = new ArrayList<>();
        try (TopicReader markers =
                TopicReader.markersOf(worker.bootstrapServers(), run.topicPrefix(), TopicFormat.JSON)) {
            markers.readUntil(
                    record -> {
                        if (record instanceof WireRecord.MarkerRecord marker
                                && marker.marker() instanceof Marker.End end
                                && end.eventCount() > 0) {
                            ends.add(end);
                        }
                    },
                    () -> !ends.isEmpty()
                            && ends.get(ends.size() - 1).dataCollections().stream()
                                    .anyMatch(c ->
                                            c.dataCollection().equals(SCHEMA + ".blobs") && c.eventCount() == blobRows),
                    Duration.ofSeconds(60),
                    () -> "waiting for the END of the large transaction; " + ends.size() + " ENDs so far");
        }
        return ends;
    }

    private static void writeProgress(PostgresNode target, Marker.End end) throws SQLException {
        try (Connection connection = target.open();
                PreparedStatement upsert = connection.prepareStatement("INSERT INTO " + PROGRESS_TABLE
                        + " VALUES (?, ?, ?::pg_lsn, ?, ?) ON CONFLICT (sink_name, source_server) DO UPDATE"
                        + " SET end_lsn = excluded.end_lsn, commit_ts = excluded.commit_ts, xid = excluded.xid")) {
            upsert.setString(1, SINK);
            upsert.setString(2, SCHEMA);
            upsert.setString(3, end.endLsn().toString());
            upsert.setObject(4, Timestamp.from(Instant.ofEpochSecond(0, end.commitTsUs() * 1000)));
            upsert.setLong(5, end.xid());
            upsert.executeUpdate();
        }
    }

    /** Every table of the schema, row for row, with COPY. */
    private static void copyTables(PostgresNode source, PostgresNode target, WorkloadSchema schema) throws Exception {
        try (Connection from = source.open();
                Connection to = target.open()) {
            CopyManager out = from.unwrap(PGConnection.class).getCopyAPI();
            CopyManager in = to.unwrap(PGConnection.class).getCopyAPI();
            for (String table : schema.tables()) {
                ByteArrayOutputStream rows = new ByteArrayOutputStream();
                out.copyOut("COPY " + table + " TO STDOUT (FORMAT binary)", rows);
                in.copyIn(
                        "COPY " + table + " FROM STDIN (FORMAT binary)", new ByteArrayInputStream(rows.toByteArray()));
            }
        }
    }
}
