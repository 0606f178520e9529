package dev.pglane.source.sequences;

import dev.pglane.connect.database.ConnectionOpener;
import dev.pglane.source.PeriodicWatch;
import dev.pglane.source.emit.FailureSlot;
import dev.pglane.source.seal.MessageSeal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sequences.interval.ms}: logical decoding carries no sequence values, so after a cut-over every target
 * sequence would be behind its table and the first insert without an id would collide. Every interval this reads the
 * values of the sequences that the publication's tables' columns own (serial and identity columns) and, when they
 * moved since the last look, writes them into the WAL as a transactional message ({@link SequenceMessages}), which
 * the reader emits like a change and the sink applies forward only.
 */
public final class SequenceWatch extends PeriodicWatch {
    private static final Logger log = LoggerFactory.getLogger(SequenceWatch.class);
    private static final String QUERY = "SELECT pt.schemaname, pt.tablename, a.attname, s.last_value"
            + " FROM pg_catalog.pg_publication_tables pt"
            + " JOIN pg_catalog.pg_namespace n ON n.nspname = pt.schemaname"
            + " JOIN pg_catalog.pg_class c ON c.relnamespace = n.oid AND c.relname = pt.tablename"
            + " JOIN pg_catalog.pg_depend d ON d.refobjid = c.oid"
            + " AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass"
            + " AND d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.deptype IN ('a', 'i')"
            + " JOIN pg_catalog.pg_class sc ON sc.oid = d.objid AND sc.relkind = 'S'"
            + " JOIN pg_catalog.pg_namespace sn ON sn.oid = sc.relnamespace"
            + " JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = d.refobjsubid"
            + " JOIN pg_catalog.pg_sequences s ON s.schemaname = sn.nspname AND s.sequencename = sc.relname"
            + " WHERE pt.pubname = ? AND (s.last_value IS NOT NULL"
            + " OR NOT pg_catalog.has_sequence_privilege(sc.oid, 'SELECT,USAGE')) ORDER BY 1, 2, 3";

    private final String publication;
    private final String prefix;
    private final MessageSeal seal;
    private List<SequenceValue> lastSent = List.of();
    private List<String> lastDenied = List.of();

    SequenceWatch(
            String connectorName,
            String publication,
            Duration interval,
            ConnectionOpener connections,
            MessageSeal seal,
            FailureSlot failures) {
        super(connectorName, "sequences", interval, connections, failures);
        this.publication = publication;
        this.prefix = SequenceMessages.prefixFor(publication);
        this.seal = seal;
    }

    /** Starts looking every {@code interval}. */
    public static SequenceWatch start(
            String connectorName,
            String publication,
            Duration interval,
            ConnectionOpener connections,
            MessageSeal seal,
            FailureSlot failures) {
        SequenceWatch watch = new SequenceWatch(connectorName, publication, interval, connections, seal, failures);
        watch.startThread();
        return watch;
    }

    @Override
    protected void check(Connection connection) throws SQLException {
        List<SequenceValue> values = read(connection);
        if (values.isEmpty() || values.equals(lastSent)) {
            return;
        }
        try (PreparedStatement st =
                connection.prepareStatement("SELECT pg_catalog.pg_logical_emit_message(true, ?, ?)")) {
            st.setString(1, prefix);
            st.setString(2, seal.seal(prefix, SequenceMessages.encode(seal.connector(), values)));
            st.executeQuery().close();
        }
        lastSent = values;
    }

    /** The publication's tables' sequences that handed out a value, ordered by table and column. */
    List<SequenceValue> read(Connection connection) throws SQLException {
        List<SequenceValue> values = new ArrayList<>();
        try (PreparedStatement st = connection.prepareStatement(QUERY)) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                List<String> denied = new ArrayList<>();
                while (rs.next()) {
                    long value = rs.getLong(4);
                    if (rs.wasNull()) {
                        denied.add(rs.getString(1) + "." + rs.getString(2) + "." + rs.getString(3));
                    } else {
                        values.add(new SequenceValue(rs.getString(1), rs.getString(2), rs.getString(3), value));
                    }
                }
                warnIfDenied(denied);
            }
        }
        return values;
    }

    /** A sequence the role may not read is a sequence the target never catches up with: said once per change. */
    private void warnIfDenied(List<String> denied) {
        if (!denied.isEmpty() && !denied.equals(lastDenied)) {
            log.warn(
                    "The sequences of {} are not sent: the role lacks SELECT or USAGE on them"
                            + " (GRANT SELECT ON ALL SEQUENCES IN SCHEMA ...)",
                    denied);
        }
        lastDenied = denied;
    }

    @Override
    protected String describe() {
        return "the sequence watch of publication " + publication;
    }

    @Override
    protected String whileFailing() {
        return "cannot read or send the captured tables' sequence values, so the target's sequences stay behind";
    }
}
