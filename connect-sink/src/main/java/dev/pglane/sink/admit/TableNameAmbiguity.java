package dev.pglane.sink.admit;

import dev.pglane.sink.target.TableName;
import dev.pglane.wire.TopicNames;
import java.nio.charset.StandardCharsets;

/**
 * Names whose way to a table is not one-to-one, which the sink refuses so that a writer of one topic cannot reach a
 * sibling table:
 *
 * <ul>
 *   <li>a change topic replaces every character Kafka refuses by {@code _}: {@code "Big Orders"} and
 *       {@code "Big_Orders"} share {@code <prefix>.Sales.Big_Orders}. Only the name the topic spells exactly (the
 *       one without replaced characters) is admitted on it;
 *   <li>a dot in a schema or table name: {@code a.b} + {@code c} and {@code a} + {@code b.c} share a topic, and
 *       {@code table.name.format}'s result is split into schema and table at its first dot;
 *   <li>a name over 63 bytes: no source table has one (PostgreSQL cuts identifiers there), and a target name over it
 *       would be cut by the target server to another table's name.
 * </ul>
 *
 * <p>With one topic for all tables only the last two apply; the include list is the boundary there.
 */
public final class TableNameAmbiguity {
    /** PostgreSQL's identifier limit (NAMEDATALEN - 1), in bytes of the server encoding (UTF-8 assumed). */
    static final int MAX_IDENTIFIER_BYTES = 63;

    private TableNameAmbiguity() {}

    /**
     * Why source table {@code schema.table}, whose records came on {@code topic} and which maps to {@code target},
     * cannot be told apart from another table; {@code null} if it can.
     */
    static String problem(TopicNames topics, String topic, String schema, String table, TableName target) {
        String name = schema + "." + table;
        if (tooLong(schema) || tooLong(table)) {
            return "source table " + name + " has a name over " + MAX_IDENTIFIER_BYTES + " bytes, which no PostgreSQL"
                    + " table has; the target would cut it to " + cut(schema) + "." + cut(table);
        }
        if (schema.indexOf('.') >= 0 || table.indexOf('.') >= 0) {
            return "source table " + name + " has a dot in its schema or table name: on topic " + topic
                    + " it cannot be told from other splits of the same name, nor mapped to one target table";
        }
        if (tooLong(target.schema()) || tooLong(target.table())) {
            return "source table " + name + " maps to " + target + ", a name over " + MAX_IDENTIFIER_BYTES
                    + " bytes that the target would cut to " + cut(target.schema()) + "." + cut(target.table())
                    + ", which may be another table";
        }
        if (!topics.isSingleTopic()
                && (!TopicNames.sanitize(schema).equals(schema)
                        || !TopicNames.sanitize(table).equals(table))) {
            return "source table " + name + " shares topic " + topic + " with source table "
                    + TopicNames.sanitize(schema) + "." + TopicNames.sanitize(table) + " (characters outside"
                    + " [a-zA-Z0-9._-] become _ in topic names), and the sink admits on a topic only the table whose"
                    + " name it spells exactly";
        }
        return null;
    }

    /**
     * Why the sink will refuse every record of change topic {@code topic} (of {@code topics}, per table), read by its
     * name alone: one that does not split into exactly one schema and one table name, or a name over 63 bytes;
     * {@code null} if it is none of those (or not a change topic of the prefix).
     */
    public static String topicProblem(TopicNames topics, String topic) {
        String prefix = topics.prefix() + ".";
        if (topics.isSingleTopic()
                || !topic.startsWith(prefix)
                || topic.equals(topics.transactionsTopic())
                || topic.equals(topics.messagesTopic())) {
            return null;
        }
        String[] names = topic.substring(prefix.length()).split("\\.", -1);
        if (names.length != 2) {
            return "topic " + topic + " does not name one schema and one table: a table whose schema or table name"
                    + " holds a dot shares its topic with other splits of the name, so the sink refuses its records";
        }
        if (tooLong(names[0]) || tooLong(names[1])) {
            return "topic " + topic + " names a schema or table over " + MAX_IDENTIFIER_BYTES + " bytes, which no"
                    + " PostgreSQL table has, so the sink refuses its records";
        }
        return null;
    }

    private static boolean tooLong(String identifier) {
        return identifier.getBytes(StandardCharsets.UTF_8).length > MAX_IDENTIFIER_BYTES;
    }

    /** {@code identifier} cut to at most 63 bytes at a character boundary, as the server cuts it. */
    private static String cut(String identifier) {
        int bytes = 0;
        int end = 0;
        while (end < identifier.length()) {
            int codePoint = identifier.codePointAt(end);
            int length = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + length > MAX_IDENTIFIER_BYTES) {
                break;
            }
            bytes += length;
            end += Character.charCount(codePoint);
        }
        return identifier.substring(0, end);
    }
}
