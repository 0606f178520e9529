package dev.pglane.source.pgoutput;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Parses one pgoutput message (the payload of one XLogData frame) into an immutable {@link PgOutputMessage}.
 *
 * <p>The parser is stateless apart from the protocol version, and thread-safe. It dispatches on the tag byte to
 * one small handler per message family; each handler reads its fields in wire order through a cursor that
 * checks every length, and the parser then requires the message to end exactly there. Tuple values are not
 * copied or decoded here (see {@link TupleData}).
 *
 * <p>Two-phase messages are rejected rather than skipped: pglane never enables {@code two_phase}, so receiving
 * one means the slot or the server does not behave as configured, and skipping would lose a transaction.
 */
public final class PgOutputParser {

    private final ProtocolVersion version;

    public PgOutputParser(ProtocolVersion version) {
        this.version = Objects.requireNonNull(version, "version");
    }

    /**
     * Parses {@code message} from its position to its limit; the caller's buffer position is not moved.
     *
     * @param insideStream between Stream Start and Stream Stop, where R/Y/I/U/D/T/M carry an xid
     * @throws PgOutputFormatException naming the tag, the field and the byte offset if the message does not
     *     follow the protocol
     */
    public PgOutputMessage parse(ByteBuffer message, boolean insideStream) {
        MessageCursor in = new MessageCursor(message, insideStream);
        PgOutputMessage parsed = switch (in.tagByte()) {
            case 'B' -> TransactionHandlers.begin(in);
            case 'C' -> TransactionHandlers.commit(in);
            case 'O' -> TransactionHandlers.origin(in);
            case 'R' -> SchemaHandlers.relation(in);
            case 'Y' -> SchemaHandlers.type(in);
            case 'I' -> RowChangeHandlers.insert(in);
            case 'U' -> RowChangeHandlers.update(in);
            case 'D' -> RowChangeHandlers.delete(in);
            case 'T' -> RowChangeHandlers.truncate(in);
            case 'M' -> LogicalMessageHandler.message(in);
            case 'S' -> StreamHandlers.start(in);
            case 'E' -> StreamHandlers.stop(in);
            case 'c' -> StreamHandlers.commit(in);
            case 'A' -> StreamHandlers.abort(in, version);
            case 'b', 'P', 'K', 'r', 'p' ->
                throw in.error(
                        "tag",
                        0,
                        "two-phase messages are not enabled: pglane never requests two_phase, so the slot or "
                                + "server sent a prepared transaction it was not asked for");
            default -> throw in.error("tag", 0, "not a pgoutput message (protocol " + version.number() + ")");
        };
        in.expectEnd();
        return parsed;
    }
}
