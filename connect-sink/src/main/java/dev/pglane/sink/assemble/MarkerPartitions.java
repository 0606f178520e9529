package dev.pglane.sink.assemble;

import java.util.Collection;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The marker topic's order is the source's commit order only while it has one partition: END markers spread over two
 * would reach the sink in an order of Kafka's choosing, and transactions would commit out of source order without
 * anything looking wrong. The check runs when the task is assigned its partitions (it is the only task, so it is
 * assigned all of them), before a single record is read.
 */
public final class MarkerPartitions {
    private MarkerPartitions() {}

    /**
     * @throws ConnectException naming the marker topic and its partitions past the first, when {@code assigned} has
     *     any
     */
    public static void requireOne(String markerTopic, Collection<TopicPartition> assigned) {
        String extra = assigned.stream()
                .filter(partition -> partition.topic().equals(markerTopic) && partition.partition() != 0)
                .map(partition -> Integer.toString(partition.partition()))
                .sorted()
                .collect(Collectors.joining(", "));
        if (!extra.isEmpty()) {
            throw new ConnectException("The marker topic " + markerTopic + " has more than one partition (also "
                    + extra + "): its markers are the source's commit order only in one partition, so the sink"
                    + " applies nothing from it. With no connector running, delete the topic and create it again with one"
                    + " partition (before the source writes to it, since a broker creating topics on first use"
                    + " gives them num.partitions), then restart both connectors.");
        }
    }
}
