package dev.pglane.sink.admit;

import dev.pglane.sink.target.TableMapping;
import dev.pglane.wire.TopicNames;

/**
 * The tables a sequence value may reach. Sequence values come on the messages topic, not on the change topic of the
 * table they name, so the boundary of the change topics does not hold by itself: a value is applied only to a table
 * whose change topic this sink consumes (a writer of the messages topic reaches no table the sink does not replicate),
 * and that its {@link TableBoundary} admits. Immutable, so the apply workers share it.
 */
public final class SequenceBoundary {
    private final TableBoundary tables;
    private final TopicNames sourceTopics;
    private final ConsumedTopics consumed;

    public SequenceBoundary(TableBoundary tables, TopicNames sourceTopics, ConsumedTopics consumed) {
        this.tables = tables;
        this.sourceTopics = sourceTopics;
        this.consumed = consumed;
    }

    /** Why a sequence value of source table {@code schema.table} may not be applied, or {@code null} if it may. */
    public String refusal(String schema, String table) {
        String topic;
        try {
            topic = sourceTopics.changeTopic(schema, table);
        } catch (IllegalArgumentException e) {
            return "source table " + schema + "." + table + " has no change topic: " + e.getMessage();
        }
        if (!consumed.includes(topic)) {
            return "the change topic of source table " + schema + "." + table + ", " + topic
                    + ", is not one this sink consumes (" + consumed + ")";
        }
        return tables.refusal(schema, table);
    }

    public TableMapping mapping() {
        return tables.mapping();
    }
}
