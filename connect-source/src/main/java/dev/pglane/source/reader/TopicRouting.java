package dev.pglane.source.reader;

/** How change records are spread over topics; the marker topic is the same either way. */
public enum TopicRouting {
    /** One topic per table: {@code <prefix>.<schema>.<table>}. */
    PER_TABLE,
    /** One topic for all tables ({@code topic.single.name}). */
    SINGLE
}
