package dev.pglane.sink.admit;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The topics a sink consumes, as Connect subscribes it: the {@code topics} list, or every topic {@code topics.regex}
 * matches whole. Only what arrives on one of them is input; a record that names a table whose change topic is not one
 * of them (a sequence value in the messages topic) must not reach that table.
 */
public final class ConsumedTopics {
    private static final String REGEX = "topics.regex ";
    private static final String LIST = "topics ";

    private final List<String> topics;
    private final Pattern regex;

    private ConsumedTopics(List<String> topics, Pattern regex) {
        this.topics = topics;
        this.regex = regex;
    }

    /** From the connector's properties, which Connect passes to each task; neither key set consumes nothing. */
    public static ConsumedTopics of(Map<String, String> props) {
        String listed = props.getOrDefault("topics", "").trim();
        String regex = props.getOrDefault("topics.regex", "").trim();
        if (!listed.isEmpty()) {
            return listed(Arrays.stream(listed.split(","))
                    .map(String::trim)
                    .filter(t -> !t.isEmpty())
                    .toList());
        }
        return regex.isEmpty() ? listed(List.of()) : new ConsumedTopics(List.of(), Pattern.compile(regex));
    }

    /** A fixed list of topics. */
    public static ConsumedTopics listed(List<String> topics) {
        return new ConsumedTopics(List.copyOf(topics), null);
    }

    /** Every topic {@code regex} matches whole. */
    public static ConsumedTopics matching(String regex) {
        return new ConsumedTopics(List.of(), Pattern.compile(regex));
    }

    /**
     * The topics {@link #toString()} names ({@code topics a,b} or {@code topics.regex <pattern>}), as a sink's table
     * group is recorded beside its progress.
     *
     * @throws IllegalArgumentException for any other text
     */
    public static ConsumedTopics parse(String declaration) {
        if (declaration.startsWith(REGEX)) {
            return matching(declaration.substring(REGEX.length()));
        }
        if (declaration.startsWith(LIST)) {
            return listed(Arrays.stream(declaration.substring(LIST.length()).split(","))
                    .filter(t -> !t.isEmpty())
                    .toList());
        }
        throw new IllegalArgumentException("not a table group: " + declaration);
    }

    /** The listed topics, empty for a regex. */
    public List<String> listed() {
        return topics;
    }

    /** Whether the topics are a regex, which only a topic's name can be checked against. */
    public boolean isRegex() {
        return regex != null;
    }

    public boolean includes(String topic) {
        return regex != null ? regex.matcher(topic).matches() : topics.contains(topic);
    }

    @Override
    public String toString() {
        return regex != null ? REGEX + regex.pattern() : LIST + String.join(",", topics);
    }
}
