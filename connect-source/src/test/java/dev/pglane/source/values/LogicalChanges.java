package dev.pglane.source.values;

import dev.pglane.source.pgoutput.InsertMessage;
import dev.pglane.source.pgoutput.PgOutputMessage;
import dev.pglane.source.pgoutput.PgOutputParser;
import dev.pglane.source.pgoutput.ProtocolVersion;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.source.pgoutput.UpdateMessage;
import java.nio.ByteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Real pgoutput messages from a real server: a publication and a slot, read through the SQL interface
 * ({@code pg_logical_slot_get_binary_changes}) in the test session, so the session settings apply to the values,
 * and parsed by the real {@link PgOutputParser}.
 */
public final class LogicalChanges {

    private final PgTextServer server;
    private final String slot;
    private final String publication;

    private LogicalChanges(PgTextServer server, String slot, String publication) {
        this.server = server;
        this.slot = slot;
        this.publication = publication;
    }

    /** A publication of {@code tables} and a pgoutput slot that starts now. */
    public static LogicalChanges capture(PgTextServer server, String name, String tables) {
        server.execute(
                "CREATE PUBLICATION " + name + " FOR TABLE " + tables,
                "SELECT pg_create_logical_replication_slot('" + name + "', 'pgoutput')");
        return new LogicalChanges(server, name, name);
    }

    /** Every message since the last call, with the given extra pgoutput options (name, value pairs). */
    public List<PgOutputMessage> read(String... options) {
        StringBuilder sql = new StringBuilder("SELECT data FROM pg_logical_slot_get_binary_changes('")
                .append(slot)
                .append("', NULL, NULL, 'proto_version', '4', 'publication_names', '")
                .append(publication)
                .append("'");
        for (String option : options) {
            sql.append(", '").append(option).append("'");
        }
        sql.append(")");
        PgOutputParser parser = new PgOutputParser(ProtocolVersion.V4);
        List<PgOutputMessage> messages = new ArrayList<>();
        try (Statement st = server.session().createStatement();
                ResultSet rs = st.executeQuery(sql.toString())) {
            while (rs.next()) {
                messages.add(parser.parse(ByteBuffer.wrap(rs.getBytes(1)), false));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return messages;
    }

    /** The last Relation message among {@code messages}. */
    public static RelationMessage relation(List<PgOutputMessage> messages) {
        return messages.stream()
                .filter(RelationMessage.class::isInstance)
                .map(RelationMessage.class::cast)
                .reduce((first, second) -> second)
                .orElseThrow(() -> new AssertionError("no Relation message in " + messages));
    }

    /** The new tuples of the inserts and updates among {@code messages}, in order. */
    public static List<TupleData> newTuples(List<PgOutputMessage> messages) {
        List<TupleData> tuples = new ArrayList<>();
        for (PgOutputMessage message : messages) {
            if (message instanceof InsertMessage insert) {
                tuples.add(insert.newTuple());
            } else if (message instanceof UpdateMessage update) {
                tuples.add(update.newTuple());
            }
        }
        return tuples;
    }
}
