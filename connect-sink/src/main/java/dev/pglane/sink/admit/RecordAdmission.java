package dev.pglane.sink.admit;

import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.TypeModifier;
import dev.pglane.sink.target.TypeText;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.types.ColumnParameters;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Decides whether a decoded change may be applied, given the topic it came from. Whoever may write a change topic
 * may change the rows of the table that topic carries, nothing more:
 *
 * <ul>
 *   <li>a record's source table must be one whose change topic is the topic it came from, as {@link TopicNames}
 *       derives it under the source's prefix; with the source's single-topic routing every table shares one
 *       topic, and the sink's {@code table.include.list} is the boundary instead;
 *   <li>a table outside a configured {@code table.include.list} is refused;
 *   <li>a table whose name reaches it ambiguously is refused ({@link TableNameAmbiguity}): one that shares its topic
 *       with a name the topic spells exactly, a name with a dot, a name over 63 bytes here or on the target;
 *   <li>neither the source table nor the target table it maps to may be in a system schema ({@code pg_*},
 *       {@code information_schema}), and the target may not be the sink's own progress table;
 *   <li>when the sink creates tables or columns, every column's type text must look like a type name
 *       ({@link TypeText}); the target server decides the rest before any DDL runs;
 *   <li>every column's type modifier must be one its type can have ({@link TypeModifier}): a bad one is the
 *       record's problem, not a failure of its transaction's apply.
 * </ul>
 *
 * <p>Verdicts are cached per topic for the last table seen on it and per row schema, so a record costs a map
 * lookup and two string comparisons. Not thread-safe: the task thread decodes.
 */
public final class RecordAdmission {
    /** Row schemas whose type texts were checked; cleared when full, since schemas come and go with versions. */
    private static final int MAX_CHECKED_SCHEMAS = 4096;

    private final TopicNames sourceTopics;
    private final TableBoundary boundary;
    private final boolean checkTypes;
    private final Map<String, Verdict> lastOnTopic = new HashMap<>();
    private final Map<Schema, String> checkedSchemas = new IdentityHashMap<>();

    /** The last table a topic carried, and whether it was admitted ({@code refusal == null}). */
    private record Verdict(String schema, String table, String refusal) {}

    /**
     * @param sourceTopics the source's topics: per table, or one for all tables
     * @param included the sink's table include list; empty admits every table
     * @param mapping how source tables map to target tables
     * @param progressTable the progress table, or {@code null} if progress lives in replication origins
     * @param checkTypes whether type texts matter, because the sink may create tables or columns
     */
    public RecordAdmission(
            TopicNames sourceTopics,
            TableIncludeList included,
            TableMapping mapping,
            TableName progressTable,
            boolean checkTypes) {
        this.sourceTopics = sourceTopics;
        this.boundary = new TableBoundary(included, mapping, progressTable);
        this.checkTypes = checkTypes;
    }

    /**
     * Why the change that came on {@code topic} may not be applied, or {@code null} if it may.
     */
    public String refusal(String topic, ChangeEvent event) {
        if (event.op() == Op.MESSAGE) {
            return topic.equals(sourceTopics.messagesTopic())
                    ? null
                    : "a logical decoding message belongs on " + sourceTopics.messagesTopic() + ", not on " + topic;
        }
        SourceInfo source = event.source();
        Verdict last = lastOnTopic.get(topic);
        if (last == null
                || !Objects.equals(last.schema(), source.schema())
                || !Objects.equals(last.table(), source.table())) {
            last = new Verdict(source.schema(), source.table(), judgeTable(topic, source.schema(), source.table()));
            lastOnTopic.put(topic, last);
        }
        return last.refusal() != null ? last.refusal() : typeRefusal(event);
    }

    private String judgeTable(String topic, String schema, String table) {
        if (schema == null || table == null) {
            return "the record names no source table";
        }
        String name = schema + "." + table;
        String expected;
        try {
            expected = sourceTopics.changeTopic(schema, table);
        } catch (IllegalArgumentException e) {
            return "source table " + name + " has no change topic: " + e.getMessage();
        }
        if (!expected.equals(topic)) {
            return "it came on topic " + topic + " but names source table " + name + ", whose changes the source"
                    + " writes to " + expected;
        }
        String outside = boundary.refusal(schema, table);
        if (outside != null) {
            return outside;
        }
        return TableNameAmbiguity.problem(
                sourceTopics, topic, schema, table, boundary.mapping().targetOf(schema, table));
    }

    /**
     * The first column whose type modifier is none its type can have ({@link TypeModifier}), or, when the sink creates
     * tables or columns, whose type text cannot be a type name; null if there is none.
     */
    private String typeRefusal(ChangeEvent event) {
        Struct image = event.after() != null ? event.after() : event.before();
        if (image == null) {
            return null; // a TRUNCATE: no row, no columns
        }
        Schema row = image.schema();
        String known = checkedSchemas.get(row);
        if (known != null) {
            return known.isEmpty() ? null : known;
        }
        String refusal = null;
        for (Field field : row.fields()) {
            refusal = columnRefusal(field);
            if (refusal != null) {
                break;
            }
        }
        if (checkedSchemas.size() >= MAX_CHECKED_SCHEMAS) {
            checkedSchemas.clear();
        }
        checkedSchemas.put(row, refusal == null ? "" : refusal);
        return refusal;
    }

    private String columnRefusal(Field field) {
        String text = ColumnParameters.pgType(field.schema());
        String problem = text == null || !checkTypes ? null : TypeText.problem(text);
        if (problem != null) {
            return "column " + field.name() + " claims type '" + text + "', which is not a type name: " + problem;
        }
        Map<String, String> parameters = field.schema().parameters();
        String typmod = parameters == null ? null : parameters.get(ColumnParameters.TYPMOD);
        problem = TypeModifier.problem(text, typmod);
        return problem == null
                ? null
                : "column " + field.name() + " claims " + ColumnParameters.TYPMOD + " '" + typmod + "' for type '"
                        + text + "': " + problem;
    }

    /** Schemas PostgreSQL reserves: {@code pg_catalog}, {@code pg_toast}, temporary ones, any {@code pg_*}. */
    public static boolean isSystemSchema(String schema) {
        return TableBoundary.isSystemSchema(schema);
    }
}
