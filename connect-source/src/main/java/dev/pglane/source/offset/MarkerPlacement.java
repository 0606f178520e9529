package dev.pglane.source.offset;

import java.util.Optional;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The marker topic carries the commit order only in one partition (wire format §1). The source cannot choose the
 * topic's partitions, a broker creating it on first use gives it {@code num.partitions}, but it learns where each
 * marker was stored: one stored in another partition than the first means every consumer of the topic may read the
 * markers out of order, so the task stops, before the slot passes the marker's transaction.
 */
public final class MarkerPlacement {
    private MarkerPlacement() {}

    /** The failure to stop the task with, when {@code record} is a marker Kafka stored outside partition 0. */
    public static Optional<ConnectException> check(String markerTopic, SourceRecord record, RecordMetadata stored) {
        if (stored == null || stored.partition() == 0 || !markerTopic.equals(stored.topic())) {
            return Optional.empty();
        }
        return Optional.of(new ConnectException(AckTracker.describe(record) + " was stored in partition "
                + stored.partition() + " of the marker topic " + markerTopic + ", which must have one partition: its"
                + " order is the commit order only there. With no connector running, delete the topic and create it"
                + " with one partition (or have Connect create it so, topic.creation.groups), then start again."));
    }
}
