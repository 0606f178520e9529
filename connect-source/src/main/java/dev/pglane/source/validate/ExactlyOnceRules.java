package dev.pglane.source.validate;

import dev.pglane.connect.validate.ConfigProblem;
import dev.pglane.source.PgSourceConfig;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What exactly-once delivery (KIP-618, {@code exactly.once.source.support=enabled} on the workers) needs of the
 * source. A restart resumes at the last END Kafka committed and sends a transaction cut off there again from its
 * start, so records are neither lost nor repeated only when every Kafka transaction ends between database
 * transactions: {@code transaction.boundary=connector}, where the source draws the boundaries. It cannot while it
 * streams in-progress transactions ({@code streaming.mode=on}), which interleave. Under {@code poll} or {@code
 * interval} boundaries a Kafka transaction may end inside a database transaction, whose start a restart then sends
 * again (pglane's sink applies it once all the same).
 */
public final class ExactlyOnceRules {
    static final String TRANSACTION_BOUNDARY = "transaction.boundary";

    private ExactlyOnceRules() {}

    /** Whether the connector draws its Kafka transactions' boundaries. */
    public static boolean connectorBoundaries(Map<String, String> props) {
        return props.getOrDefault(TRANSACTION_BOUNDARY, "poll").trim().equalsIgnoreCase("connector");
    }

    /** Whether the source can draw the boundaries with this config. */
    public static boolean canDrawBoundaries(Map<String, String> props) {
        return !streams(props);
    }

    /** Whether, on an exactly-once worker, a restart neither loses nor repeats a record. */
    public static boolean exactlyOnce(Map<String, String> props) {
        return connectorBoundaries(props) && canDrawBoundaries(props);
    }

    /** What in {@code props} (a connector's whole config) the source cannot run with; empty if nothing. */
    public static List<ConfigProblem> problems(Map<String, String> props) {
        if (!connectorBoundaries(props) || canDrawBoundaries(props)) {
            return List.of();
        }
        return List.of(new ConfigProblem(
                PgSourceConfig.STREAMING_MODE,
                "transaction.boundary=connector has each Kafka transaction end between database transactions,"
                        + " and streamed transactions (" + PgSourceConfig.STREAMING_MODE + "=on) interleave, so"
                        + " such a point may never come: set " + PgSourceConfig.STREAMING_MODE + "=off, or use"
                        + " transaction.boundary=poll"));
    }

    private static boolean streams(Map<String, String> props) {
        return props.getOrDefault(PgSourceConfig.STREAMING_MODE, "off")
                .trim()
                .toLowerCase(Locale.ROOT)
                .equals("on");
    }
}
