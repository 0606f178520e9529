package dev.pglane.local.bench.snapshot;

import dev.pglane.local.bench.CpuMeter;
import dev.pglane.local.bench.TargetDatabases;
import dev.pglane.local.stack.PostgresNode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyOut;

/**
 * The physical reference: every table's {@code COPY t TO STDOUT} on the source piped, buffer by buffer, into
 * {@code COPY t FROM STDIN} on a fresh empty target with the same keys and indexes, all tables at once (one pipe and
 * one thread per table), through pgjdbc's copy API. Nothing decodes a row on the way: what is left is the two servers'
 * work, the same as any logical copy must pay at least.
 */
final class CopyPipeRun {
    private final PostgresNode source;
    private final PostgresNode target;
    private final TargetDatabases targets;
    private final CpuMeter cpu;

    CopyPipeRun(PostgresNode source, PostgresNode target, TargetDatabases targets) {
        this.source = source;
        this.target = target;
        this.targets = targets;
        this.cpu = new CpuMeter(source, target);
    }

    SnapshotMeasurement measure(SnapshotData.Info data, int run) throws Exception {
        String database = "snapshot_copy_" + run;
        targets.createFromTemplate(database);
        List<String> tables = SnapshotData.TABLES;
        ExecutorService pipes = Executors.newFixedThreadPool(tables.size(), r -> new Thread(r, "bench-copy-pipe"));
        try {
            CpuMeter.Reading before = cpu.read();
            long begin = System.nanoTime();
            List<Future<Long>> piped = new ArrayList<>();
            for (String table : tables) {
                piped.add(pipes.submit(() -> pipe(table, database)));
            }
            long bytes = 0;
            for (Future<Long> one : piped) {
                bytes += one.get();
            }
            double seconds = (System.nanoTime() - begin) / 1e9;
            CpuMeter.Reading used = cpu.read().since(before);
            checkRows(database, data);
            return new SnapshotMeasurement(
                    SnapshotSystem.COPY_PIPE,
                    tables.size(),
                    run,
                    seconds,
                    data.totalRows(),
                    bytes,
                    used.sourcePg(),
                    used.targetPg(),
                    used.jvm(),
                    null,
                    null,
                    null);
        } finally {
            pipes.shutdownNow();
            targets.drop(database);
        }
    }

    /** One table through one pipe; returns the bytes it carried. */
    private long pipe(String table, String database) throws SQLException {
        try (Connection from = source.open(SnapshotData.DATABASE);
                Connection to = target.open(database)) {
            CopyOut out = from.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY " + table + " TO STDOUT");
            CopyIn in = to.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table + " FROM STDIN");
            long bytes = 0;
            byte[] buffer;
            while ((buffer = out.readFromCopy()) != null) {
                in.writeToCopy(buffer, 0, buffer.length);
                bytes += buffer.length;
            }
            in.endCopy();
            return bytes;
        }
    }

    /** The target's row counts against the source's: a pipe that lost rows is a failure, not a figure. */
    private void checkRows(String database, SnapshotData.Info data) throws SQLException {
        try (Connection connection = target.open(database);
                Statement statement = connection.createStatement()) {
            for (int i = 0; i < SnapshotData.TABLES.size(); i++) {
                String table = SnapshotData.TABLES.get(i);
                try (ResultSet rs = statement.executeQuery("SELECT count(*) FROM " + table)) {
                    rs.next();
                    if (rs.getLong(1) != data.rows().get(i)) {
                        throw new IllegalStateException("the COPY pipe left " + rs.getLong(1) + " rows in " + table
                                + "; the source has " + data.rows().get(i));
                    }
                }
            }
        }
    }
}
