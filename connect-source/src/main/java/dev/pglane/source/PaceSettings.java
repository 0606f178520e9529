package dev.pglane.source;

import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.Type.LONG;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.config.ConfigGroup;
import dev.pglane.source.pace.GroupLagWatch;
import java.time.Duration;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The keys that pace the snapshot by what consumes its topics: their docs, defaults and validators, defined into
 * {@link PgSourceConfig#CONFIG_DEF} with the snapshot's keys.
 */
public final class PaceSettings {
    public static final String SNAPSHOT_PACE_GROUP = "snapshot.pace.group";
    static final String SNAPSHOT_PACE_GROUP_DOC = "A consumer group that paces the snapshot, normally the sink's"
            + " (Connect names it connect-<sink connector name>): a new chunk starts only while the group has at most"
            + " snapshot.pace.max.lag.ms of work left on the partitions it has committed offsets on (its records left,"
            + " at the rate it consumed them in the last 5 s), so that snapshot rows never pile up in Kafka ahead of"
            + " the stream's own changes, which would wait behind them. The group's lag is read every 0.5 s and is as"
            + " fresh as its last commit (a sink's every offset.flush.interval.ms of its worker). Until the group has"
            + " committed for 2 s, one chunk at a time goes out. A sink that stops makes the snapshot wait (the stream"
            + " goes on); a lag that cannot be read does not (a WARN says so). Empty: the snapshot is not paced.";
    static final String SNAPSHOT_PACE_GROUP_DEFAULT = "";

    public static final String SNAPSHOT_PACE_MAX_LAG_MS = "snapshot.pace.max.lag.ms";
    static final String SNAPSHOT_PACE_MAX_LAG_MS_DOC = "With snapshot.pace.group: the group's lag, in milliseconds of"
            + " work at the rate it consumed lately, above which new snapshot chunks wait.";
    static final long SNAPSHOT_PACE_MAX_LAG_MS_DEFAULT = 1_000;

    public static final String SNAPSHOT_PACE_BOOTSTRAP_SERVERS = "snapshot.pace.bootstrap.servers";
    static final String SNAPSHOT_PACE_BOOTSTRAP_SERVERS_DOC = "The brokers where snapshot.pace.group's offsets are"
            + " (host:port,...); required with it. Further settings of the admin client that reads them (security,"
            + " for one) go in keys that start with snapshot.pace.admin., as Kafka names them.";
    static final String SNAPSHOT_PACE_BOOTSTRAP_SERVERS_DEFAULT = "";

    public static final String SNAPSHOT_PACE_ADMIN_PREFIX = "snapshot.pace.admin.";

    private PaceSettings() {}

    static void define(ConfigGroup group) {
        group.key(SNAPSHOT_PACE_GROUP, "Snapshot pace group", Width.MEDIUM)
                .define(STRING, SNAPSHOT_PACE_GROUP_DEFAULT, null, MEDIUM, SNAPSHOT_PACE_GROUP_DOC);
        group.key(SNAPSHOT_PACE_MAX_LAG_MS, "Snapshot pace: most lag", Width.SHORT)
                .define(LONG, SNAPSHOT_PACE_MAX_LAG_MS_DEFAULT, Range.atLeast(0), MEDIUM, SNAPSHOT_PACE_MAX_LAG_MS_DOC);
        group.key(SNAPSHOT_PACE_BOOTSTRAP_SERVERS, "Snapshot pace group's brokers", Width.LONG)
                .define(
                        STRING,
                        SNAPSHOT_PACE_BOOTSTRAP_SERVERS_DEFAULT,
                        null,
                        MEDIUM,
                        SNAPSHOT_PACE_BOOTSTRAP_SERVERS_DOC);
    }

    /** What paces the snapshot of {@code connectorName}, or {@code null} when nothing does. */
    static GroupLagWatch.Settings read(AbstractConfig config, String connectorName) {
        String group = config.getString(SNAPSHOT_PACE_GROUP).trim();
        if (group.isEmpty()) {
            return null;
        }
        String servers = config.getString(SNAPSHOT_PACE_BOOTSTRAP_SERVERS);
        if (servers.isBlank()) {
            throw new ConfigException(SNAPSHOT_PACE_BOOTSTRAP_SERVERS, servers, "required with " + SNAPSHOT_PACE_GROUP);
        }
        return new GroupLagWatch.Settings(
                connectorName,
                group,
                servers,
                Duration.ofMillis(config.getLong(SNAPSHOT_PACE_MAX_LAG_MS)),
                config.originalsWithPrefix(SNAPSHOT_PACE_ADMIN_PREFIX));
    }
}
