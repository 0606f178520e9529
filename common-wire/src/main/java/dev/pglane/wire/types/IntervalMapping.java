package dev.pglane.wire.types;

/**
 * How {@code interval} columns travel (the {@code interval.handling.mode} setting, named and valued as
 * Debezium's).
 *
 * <p>{@link #STRING} is lossless: PostgreSQL keeps months, days and microseconds apart, and so does the ISO-8601
 * text. {@link #NUMERIC} is what Debezium's PostgreSQL connector sends by default and its JDBC sink takes: one
 * number of microseconds, a month counted as {@value MicroDuration#DAYS_PER_MONTH} days and a day as 24 hours, so
 * {@code 1 mon} arrives as {@code 30 days 10:30:00}.
 */
public enum IntervalMapping {
    /** {@code io.debezium.time.Interval}: STRING, ISO-8601 {@code PnYnMnDTnHnMnS}. The default. */
    STRING,
    /** {@code io.debezium.time.MicroDuration}: INT64 microseconds. */
    NUMERIC
}
