package dev.pglane.source.capture;

import dev.pglane.source.PgSourceConfig;
import dev.pglane.source.pgoutput.LogicalDecodingMessage;
import dev.pglane.source.seal.MessageSeal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader thread's side of {@code snapshot.new.tables}: the tables captured as of the last END, which every offset
 * carries, and what a {@link TablesMessage} of this connector changes in them. Reader thread only.
 */
public final class TableCapture {
    private static final Logger log = LoggerFactory.getLogger(TableCapture.class);

    private final MessageSeal seal;
    private CapturedTables captured;
    /** {@link #captured}'s text, which every offset carries: built once per change, not per record. */
    private String text;

    /**
     * What a message changes, from its transaction's END on.
     *
     * @param id names the change in logs and in the snapshot it starts
     * @param joined schema.table of the tables that joined, in OID order
     */
    public record Change(String id, CapturedTables after, List<String> joined) {}

    /** @param seal the connector's seal, which its tables messages carry */
    public TableCapture(MessageSeal seal, CapturedTables captured) {
        this.seal = seal;
        committed(captured);
    }

    /**
     * With {@code snapshot.new.tables}, the tables captured when a session starts: the stored offset's, or, for a
     * connector without them (new, or upgraded, or with the option just turned on), the publication's now, whose rows
     * the initial snapshot sends, or the stream only from now on.
     *
     * @param stored the captured tables of the stored offset, {@code null} when it has none
     */
    public static TableCapture atStart(
            PgSourceConfig config, String connectorName, String stored, MessageSeal seal, Connection sql)
            throws SQLException {
        CapturedTables captured;
        if (stored != null) {
            try {
                captured = CapturedTables.parse(stored);
            } catch (IllegalArgumentException e) {
                throw new ConnectException("The stored source offset of " + config.topicPrefix() + " has captured"
                        + " tables this version cannot read: " + e.getMessage());
            }
        } else {
            captured = CapturedTables.of(NewTableWatch.published(sql, config.publicationName(), config.signalTable())
                    .keySet());
            log.info(
                    "pglane source {}: snapshot.new.tables tracks the {} tables publication {} sends now; a table"
                            + " that joins it from here on is snapshotted",
                    connectorName,
                    captured.size(),
                    config.publicationName());
        }
        return new TableCapture(seal, captured);
    }

    public static boolean isTablesMessage(String prefix) {
        return TablesMessage.PREFIX.equals(prefix);
    }

    /**
     * A message whose prefix {@link #isTablesMessage} accepted.
     *
     * @return what it changes, or {@code null} for another connector's, or one that cannot be read or does not carry
     *     the connector's seal (with a WARN)
     */
    public Change received(LogicalDecodingMessage message) {
        MessageSeal.Opened opened = seal.open(message.prefix(), message.content());
        TablesMessage tables;
        try {
            tables = TablesMessage.parse(opened.payload());
        } catch (IllegalArgumentException e) {
            seal.refused().refuse(message.prefix(), message.lsn(), "its content is not a list of tables pglane writes");
            return null;
        }
        if (!tables.topicPrefix().equals(seal.connector())) {
            return null;
        }
        if (!opened.authentic()) {
            seal.refused().unsealed(message.prefix(), message.lsn());
            return null;
        }
        if (!message.transactional()) {
            log.warn("A tables message at {} is ignored: it was written outside a transaction", message.lsn());
            return null;
        }
        List<String> joined = tables.tables().entrySet().stream()
                .filter(table -> !captured.contains(table.getKey()))
                .sorted(Map.Entry.comparingByKey())
                .map(Map.Entry::getValue)
                .toList();
        return new Change(
                "tables-" + message.lsn(), CapturedTables.of(tables.tables().keySet()), joined);
    }

    /**
     * True if the table of pgoutput's {@code relationId} (its OID) is among the captured ones; false for one that
     * joined the publication and whose snapshot has not started, so its changes may reach rows a target lacks.
     */
    public boolean captures(int relationId) {
        return captured.contains(Integer.toUnsignedLong(relationId));
    }

    /** The change of a transaction whose END is out holds. */
    public void committed(CapturedTables after) {
        captured = after;
        text = after.toText();
    }

    /** The captured tables as the offsets carry them. */
    public String text() {
        return text;
    }
}
