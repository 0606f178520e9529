package dev.pglane.source.reader;

import java.util.Set;

/**
 * Which logical decoding messages become records: none ({@code logical.messages=drop}), or, emitted, those whose
 * prefix is one of {@code logical.messages.prefixes}, every prefix when that set is empty. pglane's own messages
 * (snapshot watermarks, signals, announcements of captured tables) never become records, whatever it says.
 *
 * @param emit whether messages are asked of the server and emitted at all
 * @param prefixes the prefixes emitted, exactly as written; empty: every prefix
 */
public record MessageFilter(boolean emit, Set<String> prefixes) {
    /** {@code logical.messages=drop}. */
    public static final MessageFilter NONE = new MessageFilter(false, Set.of());

    public MessageFilter {
        prefixes = Set.copyOf(prefixes);
    }

    /** Whether a message of {@code prefix} becomes a record. */
    boolean emits(String prefix) {
        return emit && (prefixes.isEmpty() || prefixes.contains(prefix));
    }
}
