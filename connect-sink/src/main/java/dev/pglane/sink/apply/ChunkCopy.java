package dev.pglane.sink.apply;

import static dev.pglane.sink.target.Identifiers.columnList;
import static dev.pglane.sink.target.Identifiers.qualified;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.target.TargetTable;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.marker.SnapshotChunk;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.errors.DataException;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads a snapshot chunk with one {@code COPY ... FROM STDIN} when the target holds no row in the chunk's key range:
 * the initial load into an empty table, several times faster than multi-row upserts. There is then nothing to
 * overwrite and no stray row to delete, so COPY's plain inserts have the upsert's effect. The probe and the COPY run
 * in the chunk's own transaction, which also writes the progress row, so a chunk still applies exactly once.
 *
 * <p>A row of the range that an earlier source transaction inserted and another worker has not committed yet is
 * invisible to the probe; the scheduler orders the two only if the chunk holds the same key. Should the COPY then
 * meet the key (a unique violation), it is undone to a savepoint and the chunk goes the upsert's way instead.
 */
final class ChunkCopy {
    private static final Logger log = LoggerFactory.getLogger(ChunkCopy.class);
    private static final String UNIQUE_VIOLATION = "23505";
    /** Characters of COPY text gathered before they are sent: large enough to keep round trips few. */
    private static final int SEND_CHARS = 1 << 18;

    private final Connection connection;
    private final RowPlans plans;
    private long copied;

    ChunkCopy(Connection connection, RowPlans plans) {
        this.connection = connection;
        this.plans = plans;
    }

    /**
     * @return true if it loaded {@code tx}; false, having written nothing, if {@code tx} is no snapshot chunk, holds
     *     rows of several shapes, or meets rows of the target in its range: the caller applies it row by row
     */
    boolean load(SourceTransaction tx) throws SQLException {
        SnapshotChunk chunk = tx.end().snapshot();
        if (chunk == null || chunk.range() == null) {
            return false;
        }
        RowPlan plan = commonPlan(tx);
        if (plan == null) {
            return false;
        }
        TargetTable target = plans.target(plan.table).orElseThrow();
        if (holdsRows(new KeyRangeCondition(plan.table, target, chunk.range()), plan)) {
            return false;
        }
        Savepoint beforeCopy = connection.setSavepoint();
        try {
            copy(plan, tx);
        } catch (SQLException e) {
            if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw ApplyFailures.of(e, plan, records(tx), tx);
            }
            connection.rollback(beforeCopy);
            log.info(
                    "Snapshot chunk {} of {} ({}) met a row of {} that another worker is writing; applying it as an"
                            + " upsert instead of COPY: {}",
                    chunk.chunk(),
                    chunk.table(),
                    tx.describe(),
                    plan.table,
                    e.getMessage());
            return false;
        }
        connection.releaseSavepoint(beforeCopy);
        copied++;
        return true;
    }

    /** Chunks loaded by COPY since the session opened. */
    long copied() {
        return copied;
    }

    /** The plan all of the chunk's rows share, or null if it holds none, other changes, or rows of several shapes. */
    private RowPlan commonPlan(SourceTransaction tx) throws SQLException {
        RowPlan plan = null;
        for (ChangeRecord record : tx.changes()) {
            if (record.event().op() != Op.READ) {
                return null;
            }
            RowPlan next = plans.planFor(record);
            if (plan != null && !next.sameStatement(plan)) {
                return null;
            }
            plan = next;
        }
        return plan == null || plan.written.isEmpty() ? null : plan;
    }

    private boolean holdsRows(KeyRangeCondition inRange, RowPlan plan) throws SQLException {
        String probe = "SELECT EXISTS (SELECT 1 FROM " + qualified(plan.table) + inRange.where(null) + ")";
        try (PreparedStatement st = connection.prepareStatement(probe)) {
            inRange.bind(st);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private void copy(RowPlan plan, SourceTransaction tx) throws SQLException {
        String sql = "COPY " + qualified(plan.table) + " (" + columnList(names(plan.written)) + ") FROM STDIN";
        CopyIn in = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
        try {
            CopyTextRows rows = new CopyTextRows(SEND_CHARS + 4096);
            for (ChangeRecord record : tx.changes()) {
                try {
                    for (Field field : plan.written) {
                        rows.value(RowValues.text(field, record.event(), RowImage.AFTER));
                    }
                } catch (DataException e) {
                    throw RowValues.unwritable(record, tx, e);
                }
                rows.endRow();
                if (rows.length() >= SEND_CHARS) {
                    send(in, rows);
                }
            }
            send(in, rows);
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }

    private static void send(CopyIn in, CopyTextRows rows) throws SQLException {
        byte[] bytes = rows.take().getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0) {
            in.writeToCopy(bytes, 0, bytes.length);
        }
    }

    private static List<ChangeRecord> records(SourceTransaction tx) {
        List<ChangeRecord> records = new ArrayList<>();
        tx.changes().forEach(records::add);
        return records;
    }

    private static List<String> names(List<Field> fields) {
        return fields.stream().map(Field::name).toList();
    }
}
