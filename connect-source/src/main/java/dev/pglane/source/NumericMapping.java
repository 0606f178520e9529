package dev.pglane.source;

/** How {@code numeric} columns are represented in records. */
public enum NumericMapping {
    /** Connect {@code Decimal} (plus NaN and infinities), lossless. */
    PRECISE,
    /** The server's text form, lossless and schema-free. */
    STRING,
    /** A 64-bit float: lossy, for consumers that cannot read decimals. */
    DOUBLE
}
