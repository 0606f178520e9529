package dev.pglane.source.capture;

import dev.pglane.source.pgoutput.LogicalDecodingMessage;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader thread's side of {@code snapshot.new.tables}: the tables captured as of the last END, which every offset
 * carries, and what a {@link TablesMessage} of this connector changes in them. Reader thread only.
 */
public final class TableCapture {
    private static final Logger log = LoggerFactory.getLogger(TableCapture.class);

    private final String topicPrefix;
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

    public TableCapture(String topicPrefix, CapturedTables captured) {
        this.topicPrefix = topicPrefix;
        committed(captured);
    }

    public static boolean isTablesMessage(String prefix) {
        return TablesMessage.PREFIX.equals(prefix);
    }

    /**
     * A message whose prefix {@link #isTablesMessage} accepted.
     *
     * @return what it changes, or {@code null} for another connector's, or one that cannot be read (with a WARN)
     */
    public Change received(LogicalDecodingMessage message) {
        TablesMessage tables;
        try {
            tables = TablesMessage.parse(message.content());
        } catch (IllegalArgumentException e) {
            log.warn("A tables message at {} is ignored: {}", message.lsn(), e.getMessage());
            return null;
        }
        if (!tables.topicPrefix().equals(topicPrefix)) {
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
