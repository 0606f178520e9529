package dev.pglane.sink.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.sink.admit.SequenceBoundary;
import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.target.Identifiers;
import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.WarnOnce;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.DataCollectionCount;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the sequence values a pglane source sends ({@code sequences.interval.ms}, messages with the prefix {@code
 * pglane.sequences.<publication>}): each names a source table, a column and the value its sequence last handed out;
 * the sequence the target table's column owns (serial or identity, as {@code pg_get_serial_sequence} finds it) is set
 * to it, plus {@code sequences.margin}, unless it stands there or beyond already. Forward only, so values that arrive
 * late or twice never move a sequence back. Only tables within the sink's {@link SequenceBoundary} are touched (their
 * change topics are consumed by this sink), and no SQL text is built from the message: names go in as parameters,
 * resolved by the server.
 *
 * <p>A sequence is never a reason for a transaction to fail. {@code setval} is not transactional, so the values are
 * read while the transaction is applied ({@link #read}) but set only once its commit succeeded ({@link #advance}),
 * each in a short transaction of its own: a transaction rolled back (a retry, a deadlock victim, a failure) moves no
 * sequence. A crash between the commit and the advance loses that message's values; the source sends them again
 * every {@code sequences.interval.ms}, and they only ever move forward. A value past its sequence's maximum is
 * clamped to it, one below its minimum is behind it already, and what cannot be set at all (a table or column the
 * target lacks, a sequence the role may not update, a descending sequence, a value plus margin past the range of
 * bigint, a message that is not pglane's JSON, a failed statement) is skipped; each with a WARN (once per column and
 * reason, rate-limited) and {@link SequenceListener#sequenceValueSkipped}.
 */
final class SequenceAdvance {
    private static final Logger log = LoggerFactory.getLogger(SequenceAdvance.class);
    private static final String PREFIX = "pglane.sequences.";
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * Answers 'none' (no such table, column or sequence), 'denied', 'descending', 'ahead' (at or past the value, or
     * the value is below the sequence's minimum), 'advanced' or 'clamped' (set to the sequence's maximum). OFFSET 0
     * keeps q a subquery of its own: pulled up, the planner would evaluate pg_get_serial_sequence to estimate the join,
     * also for a table that does not exist.
     */
    private static final String ADVANCE = "SELECT CASE WHEN q.s IS NULL OR p.seqrelid IS NULL THEN 'none'"
            + " WHEN NOT (pg_catalog.has_sequence_privilege(q.s, 'UPDATE')"
            + " AND pg_catalog.has_sequence_privilege(q.s, 'SELECT,USAGE')) THEN 'denied'"
            + " WHEN p.seqincrement < 0 THEN 'descending'"
            + " WHEN q.v < p.seqmin"
            + " OR COALESCE(pg_catalog.pg_sequence_last_value(q.s) >= LEAST(q.v, p.seqmax), false) THEN 'ahead'"
            + " WHEN pg_catalog.setval(q.s, LEAST(q.v, p.seqmax)) IS NULL THEN 'none'"
            + " WHEN q.v > p.seqmax THEN 'clamped' ELSE 'advanced' END"
            + " FROM (SELECT ?::pg_catalog.int8 AS v, CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a"
            + " WHERE a.attrelid = pg_catalog.to_regclass(?) AND a.attname = ? AND NOT a.attisdropped)"
            + " THEN pg_catalog.pg_get_serial_sequence(?, ?)::pg_catalog.regclass END AS s OFFSET 0) q"
            + " LEFT JOIN pg_catalog.pg_sequence p ON p.seqrelid = q.s";

    /** A value to set once the transaction that carried it committed. */
    private record Value(TableName target, String column, long value, String position) {
        String name() {
            return target + "." + column;
        }
    }

    private final Connection connection;
    private final SequenceBoundary boundary;
    private final long margin;
    private final SequenceListener listener;
    private final WarnOnce warnings = new WarnOnce(log);
    private final List<Value> pending = new ArrayList<>();

    /** @param margin added to every value ({@code sequences.margin}) */
    SequenceAdvance(Connection connection, SequenceBoundary boundary, long margin, SequenceListener listener) {
        this.connection = connection;
        this.boundary = boundary;
        this.margin = margin;
        this.listener = listener;
    }

    /** Reads the sequence values of {@code tx}, in place of those read before; {@link #advance} sets them. */
    void read(SourceTransaction tx) {
        pending.clear();
        if (!mayHoldMessages(tx)) {
            return; // a spilled transaction is not read twice for nothing
        }
        for (ChangeRecord record : tx.changes()) {
            LogicalMessage message = record.event().message();
            if (record.event().op() == Op.MESSAGE && message.prefix().startsWith(PREFIX)) {
                read(message.content(), record.position());
            }
        }
    }

    private static boolean mayHoldMessages(SourceTransaction tx) {
        return tx.transactionCount() > 1
                || tx.end().dataCollections().stream()
                        .anyMatch(count -> count.dataCollection().equals(DataCollectionCount.MESSAGES));
    }

    /** Forgets the values read: their transaction was rolled back. */
    void discard() {
        pending.clear();
    }

    /** Reads one message's values; {@code position} names its record in a WARN. */
    void read(byte[] content, String position) {
        JsonNode sequences;
        try {
            sequences = JSON.readTree(content).path("sequences");
        } catch (IOException e) {
            skipped(
                    "unreadable " + position,
                    "A sequence message at " + position + " is not the JSON pglane writes; its values are skipped: "
                            + e.getMessage());
            return;
        }
        for (JsonNode entry : sequences) {
            String schema = entry.path("schema").asText();
            String table = entry.path("table").asText();
            String column = entry.path("column").asText();
            String refusal = boundary.refusal(schema, table);
            if (refusal != null) {
                skipped(
                        schema + "." + table + " refused",
                        "The sequence value of " + column + " is skipped: " + refusal);
                continue;
            }
            TableName target = boundary.mapping().targetOf(schema, table);
            JsonNode last = entry.path("last_value");
            if (!last.isIntegralNumber() || !last.canConvertToLong()) {
                skipped(
                        target + "." + column + " value",
                        "The sequence value of " + target + "." + column + " at " + position
                                + " is skipped: it is not a bigint");
                continue;
            }
            try {
                pending.add(new Value(target, column, Math.addExact(last.asLong(), margin), position));
            } catch (ArithmeticException e) {
                skipped(
                        target + "." + column + " overflow",
                        "The sequence value of " + target + "." + column + " at " + position
                                + " is skipped: it plus sequences.margin (" + margin + ") is past the range of bigint");
            }
        }
    }

    /**
     * Sets the values read, after their transaction committed: each in a transaction of its own, committed at once.
     * Never throws: a value that cannot be set is warned of and skipped.
     */
    void advance() {
        for (Value value : pending) {
            try {
                report(value, set(value));
                connection.commit();
            } catch (SQLException e) {
                rollbackQuietly();
                skipped(
                        value.name() + " failed",
                        "The sequence value of " + value.name() + " at " + value.position()
                                + " is skipped: setting it failed (SQLState " + e.getSQLState() + ")");
            }
        }
        pending.clear();
    }

    private String set(Value value) throws SQLException {
        String table = Identifiers.qualified(value.target());
        try (PreparedStatement st = connection.prepareStatement(ADVANCE)) {
            st.setLong(1, value.value());
            st.setString(2, table);
            st.setString(3, value.column());
            st.setString(4, table);
            st.setString(5, value.column());
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private void report(Value value, String outcome) {
        String reason = switch (outcome) {
            case "none" -> "the target has no such column, or it owns no sequence";
            case "denied" -> "the role lacks UPDATE, or both SELECT and USAGE, on its sequence";
            case "descending" -> "its sequence counts down, and values are only moved up";
            case "clamped" -> null;
            default -> "";
        };
        if (reason == null) {
            skipped(
                    value.name() + " clamped",
                    "The sequence value " + value.value() + " of " + value.name() + " at " + value.position()
                            + " is past its sequence's maximum; the sequence was set to its maximum instead");
        } else if (!reason.isEmpty()) {
            skipped(value.name() + " " + outcome, "The sequence value of " + value.name() + " is skipped: " + reason);
        }
    }

    private void skipped(String key, String message) {
        listener.sequenceValueSkipped();
        warnings.warn(key, message);
    }

    private void rollbackQuietly() {
        try {
            connection.rollback();
        } catch (SQLException e) {
            log.debug("Rolling back after a failed sequence value failed", e);
        }
    }
}
