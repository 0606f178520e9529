package dev.pglane.wire;

import org.apache.kafka.connect.errors.DataException;

/**
 * A record, marker, key or offset does not follow the pglane wire contract.
 *
 * <p>It extends {@link DataException} so that Connect's error handling (tolerance, dead-letter queue)
 * treats it like any other undecodable record. The message always names the offending field and the
 * value found, because the person reading it usually has only the log line and the topic.
 */
public class WireFormatException extends DataException {

    public WireFormatException(String message) {
        super(message);
    }

    /**
     * Builds the standard message {@code <context> field '<field>': <problem> (value: <value>)}.
     *
     * @param context what was being read, e.g. {@code "envelope"} or {@code "marker END"}
     */
    public static WireFormatException forField(String context, String field, Object value, String problem) {
        return new WireFormatException(context + " field '" + field + "': " + problem + " (value: " + value + ")");
    }
}
