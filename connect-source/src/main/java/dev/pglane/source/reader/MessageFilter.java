package dev.pglane.source.reader;

import java.util.Set;

/**
 * Which logical decoding messages become records: none ({@code logical.messages=drop}), or, emitted, those whose
 * prefix is one of {@code logical.messages.prefixes}, every prefix when that set is empty. pglane's own messages
 * (snapshot watermarks, signals, announcements of captured tables) never become records, whatever it says; the
 * connector's own sequence values ({@code sequences.interval.ms}) always do.
 *
 * @param emit whether messages are asked of the server and emitted at all
 * @param prefixes the prefixes emitted, exactly as written; empty: every prefix
 * @param sequences the prefix of the connector's own sequence messages, emitted whatever the rest says; {@code null}
 *     when it sends none
 */
public record MessageFilter(boolean emit, Set<String> prefixes, String sequences) {
    /** {@code logical.messages=drop}, without sequences. */
    public static final MessageFilter NONE = new MessageFilter(false, Set.of());

    public MessageFilter {
        prefixes = Set.copyOf(prefixes);
    }

    public MessageFilter(boolean emit, Set<String> prefixes) {
        this(emit, prefixes, null);
    }

    /** Whether a message of {@code prefix} becomes a record. */
    boolean emits(String prefix) {
        return prefix.equals(sequences) || emit && (prefixes.isEmpty() || prefixes.contains(prefix));
    }

    /** Whether messages are asked of the server for this filter's sake. */
    public boolean requested() {
        return emit || sequences != null;
    }
}
