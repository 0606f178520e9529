package dev.pglane.source.reader;

import java.util.Locale;

/**
 * Which transactions the source captures by where they came from, as the {@code origin} option of a PostgreSQL
 * subscription chooses: a transaction "has an origin" when the session that wrote it had set up a replication origin,
 * as a subscriber's apply worker and pglane's sink do.
 */
public enum OriginFilter {
    /** Every transaction, whatever its origin. */
    ANY,
    /** Only transactions without an origin: those written locally, not applied from another server. */
    NONE;

    /** The pgoutput {@code origin} option's value (PostgreSQL 16+). */
    String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
