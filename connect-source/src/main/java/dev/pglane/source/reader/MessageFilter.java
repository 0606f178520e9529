package dev.pglane.source.reader;

import java.util.Set;

/**
 * Which logical decoding messages become records: none ({@code logical.messages=drop}), or, emitted, those whose
 * prefix is one of {@code logical.messages.prefixes}, every prefix when that set is empty. Prefixes that start with
 * {@value #RESERVED} are pglane's own (snapshot watermarks, signals, announcements of captured tables, sequence
 * values, the sink's durability barrier) and never become records, whatever it says: a consumer, pglane's sink among
 * them, acts on a record of such a prefix. The one exception is the connector's own sequence values ({@code
 * sequences.interval.ms}), which always become records once their seal checks.
 *
 * @param emit whether messages are asked of the server and emitted at all
 * @param prefixes the prefixes emitted, exactly as written; empty: every prefix
 * @param sequences the prefix of the connector's own sequence messages, emitted whatever the rest says; {@code null}
 *     when it sends none
 */
public record MessageFilter(boolean emit, Set<String> prefixes, String sequences) {
    /** The start of every prefix pglane writes. */
    public static final String RESERVED = "pglane.";

    /** {@code logical.messages=drop}, without sequences. */
    public static final MessageFilter NONE = new MessageFilter(false, Set.of());

    public MessageFilter {
        prefixes = Set.copyOf(prefixes);
    }

    public MessageFilter(boolean emit, Set<String> prefixes) {
        this(emit, prefixes, null);
    }

    /** Whether a message of {@code prefix}, not the connector's own sequence values, becomes a record. */
    boolean emits(String prefix) {
        return emit && !prefix.startsWith(RESERVED) && (prefixes.isEmpty() || prefixes.contains(prefix));
    }

    /** Whether {@code prefix} is that of the connector's own sequence values, which become records when sealed. */
    boolean isOwnSequences(String prefix) {
        return prefix.equals(sequences);
    }

    /** Whether messages are asked of the server for this filter's sake. */
    public boolean requested() {
        return emit || sequences != null;
    }
}
