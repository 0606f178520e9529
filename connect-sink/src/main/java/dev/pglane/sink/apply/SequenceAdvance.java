package dev.pglane.sink.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pglane.sink.admit.TableBoundary;
import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.target.Identifiers;
import dev.pglane.sink.target.TableName;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.DataCollectionCount;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the sequence values a pglane source sends ({@code sequences.interval.ms}, messages with the prefix {@code
 * pglane.sequences.<publication>}): each names a source table, a column and the value its sequence last handed out;
 * the sequence the target table's column owns (serial or identity, as {@code pg_get_serial_sequence} finds it) is set
 * to it, plus {@code sequences.margin}, unless it stands there or beyond already. Forward only, so values that arrive late or twice never move a
 * sequence back. Only tables within the sink's {@link TableBoundary} are touched, and no SQL text is built from the
 * message: names go in as parameters, resolved by the server.
 *
 * <p>A table or column the target lacks, or a sequence the role may not update, is skipped with a WARN (once per
 * column and reason): a failed statement would abort the transaction it runs in.
 */
final class SequenceAdvance {
    private static final Logger log = LoggerFactory.getLogger(SequenceAdvance.class);
    private static final String PREFIX = "pglane.sequences.";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Answers 'advanced', 'ahead' (at or past the value), 'none' (no such table, column or sequence) or 'denied'. */
    private static final String ADVANCE = "SELECT CASE WHEN q.s IS NULL THEN 'none'"
            + " WHEN NOT (pg_catalog.has_sequence_privilege(q.s, 'UPDATE')"
            + " AND pg_catalog.has_sequence_privilege(q.s, 'SELECT,USAGE')) THEN 'denied'"
            + " WHEN COALESCE(pg_catalog.pg_sequence_last_value(q.s) >= ?, false) THEN 'ahead'"
            + " WHEN pg_catalog.setval(q.s, ?) IS NOT NULL THEN 'advanced' END"
            + " FROM (SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a"
            + " WHERE a.attrelid = pg_catalog.to_regclass(?) AND a.attname = ? AND NOT a.attisdropped)"
            + " THEN pg_catalog.pg_get_serial_sequence(?, ?)::pg_catalog.regclass END AS s) q";

    private final Connection connection;
    private final TableBoundary boundary;
    private final long margin;
    private final Set<String> warned = new HashSet<>();

    /** @param margin added to every value ({@code sequences.margin}) */
    SequenceAdvance(Connection connection, TableBoundary boundary, long margin) {
        this.connection = connection;
        this.boundary = boundary;
        this.margin = margin;
    }

    /** Applies the sequence messages of {@code tx}, in its open database transaction. */
    void apply(SourceTransaction tx) throws SQLException {
        if (!mayHoldMessages(tx)) {
            return; // a spilled transaction is not read twice for nothing
        }
        for (ChangeRecord record : tx.changes()) {
            LogicalMessage message = record.event().message();
            if (record.event().op() == Op.MESSAGE && message.prefix().startsWith(PREFIX)) {
                apply(message.content(), record.position());
            }
        }
    }

    private static boolean mayHoldMessages(SourceTransaction tx) {
        return tx.transactionCount() > 1
                || tx.end().dataCollections().stream()
                        .anyMatch(count -> count.dataCollection().equals(DataCollectionCount.MESSAGES));
    }

    /** Applies one message's values; {@code position} names its record in a WARN. */
    void apply(byte[] content, String position) throws SQLException {
        JsonNode sequences;
        try {
            sequences = JSON.readTree(content).path("sequences");
        } catch (IOException e) {
            warnOnce(
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
                warnOnce(
                        schema + "." + table + " refused",
                        "The sequence value of " + column + " is skipped: " + refusal);
                continue;
            }
            long value = entry.path("last_value").asLong();
            advance(boundary.mapping().targetOf(schema, table), column, Math.addExact(value, margin));
        }
    }

    private void advance(TableName target, String column, long value) throws SQLException {
        String table = Identifiers.qualified(target);
        try (PreparedStatement st = connection.prepareStatement(ADVANCE)) {
            st.setLong(1, value);
            st.setLong(2, value);
            st.setString(3, table);
            st.setString(4, column);
            st.setString(5, table);
            st.setString(6, column);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                String outcome = rs.getString(1);
                if (outcome.equals("none")) {
                    warnOnce(
                            target + "." + column + " none",
                            "The sequence value of " + target + "." + column
                                    + " is skipped: the target has no such column, or it owns no sequence");
                } else if (outcome.equals("denied")) {
                    warnOnce(
                            target + "." + column + " denied",
                            "The sequence value of " + target + "." + column
                                    + " is skipped: the role lacks UPDATE, or both SELECT and USAGE, on its sequence");
                }
            }
        }
    }

    private void warnOnce(String key, String message) {
        if (warned.add(key)) {
            log.warn(message);
        }
    }
}
