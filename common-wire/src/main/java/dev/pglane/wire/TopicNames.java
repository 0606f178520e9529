package dev.pglane.wire;

import java.util.Objects;

/**
 * The Kafka topic names pglane writes to, derived from the connector's {@code topic.prefix}.
 *
 * <ul>
 *   <li>change records: {@code <prefix>.<schema>.<table>}, or one topic for all tables
 *       ({@code <prefix>.changes} unless named explicitly);
 *   <li>transaction markers: {@code <prefix>.transactions};
 *   <li>logical decoding messages ({@code pg_logical_emit_message}): {@code <prefix>.messages}.
 * </ul>
 *
 * <p>{@link #debezium} names Debezium's PostgreSQL topics instead, for a sink that reads those: the same change topics
 * (Debezium's default naming), its transaction metadata topic {@code <prefix>.transaction} in the markers' place and
 * {@code <prefix>.message} for messages.
 *
 * <p>Kafka accepts only {@code [a-zA-Z0-9._-]} in topic names, at most 249 characters. PostgreSQL
 * identifiers can hold anything, so every other character of a schema or table name is replaced by
 * {@code _} (one {@code _} per UTF-16 char). The replacement is deterministic, so source and sink
 * derive the same name, but not injective: {@code "a b"} and {@code "a_b"} share a topic, which is
 * harmless because every record names its table in {@code source.schema}/{@code source.table}.
 * A name longer than 249 characters is rejected rather than cut, since a cut could silently merge
 * tables.
 */
public final class TopicNames {

    /** Kafka's limit on topic name length. */
    public static final int MAX_LENGTH = 249;

    /** Suffix of the single change topic when no explicit name is configured. */
    public static final String DEFAULT_SINGLE_TOPIC_SUFFIX = "changes";

    /** Suffix of the marker topic. */
    public static final String TRANSACTIONS_SUFFIX = "transactions";

    /** Suffix of the logical-decoding-message topic. */
    public static final String MESSAGES_SUFFIX = "messages";

    /** Suffix of Debezium's transaction metadata topic (its {@code topic.transaction} default). */
    public static final String DEBEZIUM_TRANSACTION_SUFFIX = "transaction";

    /** Suffix of Debezium's topic of logical decoding messages. */
    public static final String DEBEZIUM_MESSAGE_SUFFIX = "message";

    private final String prefix;
    private final String singleTopic;
    private final String transactionsSuffix;
    private final String messagesSuffix;

    private TopicNames(String prefix, String singleTopic, String transactionsSuffix, String messagesSuffix) {
        this.prefix = prefix;
        this.singleTopic = singleTopic;
        this.transactionsSuffix = transactionsSuffix;
        this.messagesSuffix = messagesSuffix;
    }

    /** One topic per table: {@code <prefix>.<schema>.<table>}. */
    public static TopicNames perTable(String prefix) {
        return new TopicNames(validatePrefix(prefix), null, TRANSACTIONS_SUFFIX, MESSAGES_SUFFIX);
    }

    /** The topics of Debezium's PostgreSQL connector under {@code topic.prefix}, with its default naming. */
    public static TopicNames debezium(String prefix) {
        return new TopicNames(validatePrefix(prefix), null, DEBEZIUM_TRANSACTION_SUFFIX, DEBEZIUM_MESSAGE_SUFFIX);
    }

    /**
     * All tables to one topic.
     *
     * @param topic the topic name, or {@code null} for {@code <prefix>.changes}
     */
    public static TopicNames singleTopic(String prefix, String topic) {
        String valid = validatePrefix(prefix);
        String name = topic == null ? valid + "." + DEFAULT_SINGLE_TOPIC_SUFFIX : topic;
        return new TopicNames(valid, checkTopic(name, "single change topic"), TRANSACTIONS_SUFFIX, MESSAGES_SUFFIX);
    }

    /**
     * Checks a {@code topic.prefix}: non-empty, only Kafka topic characters, and short enough to
     * leave room for the suffixes. Returns it unchanged.
     *
     * @throws IllegalArgumentException whose message names the prefix and the problem
     */
    public static String validatePrefix(String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("topic prefix must not be empty");
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (!isLegal(prefix.charAt(i))) {
                throw new IllegalArgumentException("topic prefix '" + prefix + "' contains '" + prefix.charAt(i)
                        + "'; Kafka topic names allow only [a-zA-Z0-9._-]");
            }
        }
        if (prefix.equals(".") || prefix.equals("..")) {
            throw new IllegalArgumentException("topic prefix '" + prefix + "' is not a usable topic name");
        }
        int longestSuffix = TRANSACTIONS_SUFFIX.length() + 1;
        if (prefix.length() + longestSuffix > MAX_LENGTH) {
            throw new IllegalArgumentException("topic prefix '" + prefix + "' is too long: at most "
                    + (MAX_LENGTH - longestSuffix) + " characters leave room for '." + TRANSACTIONS_SUFFIX + "'");
        }
        return prefix;
    }

    /** Replaces every character Kafka does not accept in a topic name with {@code _}. */
    public static String sanitize(String name) {
        StringBuilder out = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            out.append(isLegal(c) ? c : '_');
        }
        return out.toString();
    }

    public String prefix() {
        return prefix;
    }

    /** True if all tables share one change topic. */
    public boolean isSingleTopic() {
        return singleTopic != null;
    }

    /**
     * The topic of a table's change records.
     *
     * @throws IllegalArgumentException if the resulting name exceeds {@value #MAX_LENGTH} characters
     */
    public String changeTopic(String schema, String table) {
        if (singleTopic != null) {
            return singleTopic;
        }
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        return checkTopic(
                prefix + "." + sanitize(schema) + "." + sanitize(table), "change topic of " + schema + "." + table);
    }

    /** The marker topic, {@code <prefix>.transactions} (Debezium's: {@code .transaction}): the authority on order. */
    public String transactionsTopic() {
        return prefix + "." + transactionsSuffix;
    }

    /** The topic of logical decoding messages, {@code <prefix>.messages} (Debezium's: {@code .message}). */
    public String messagesTopic() {
        return prefix + "." + messagesSuffix;
    }

    private static String checkTopic(String name, String what) {
        if (name.isEmpty() || name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    what + " '" + name + "' has " + name.length() + " characters; Kafka allows 1 to " + MAX_LENGTH);
        }
        if (!sanitize(name).equals(name)) {
            throw new IllegalArgumentException(what + " '" + name + "' contains characters outside [a-zA-Z0-9._-]");
        }
        return name;
    }

    private static boolean isLegal(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '.'
                || c == '_'
                || c == '-';
    }
}
