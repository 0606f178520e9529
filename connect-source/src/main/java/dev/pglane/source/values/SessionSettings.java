package dev.pglane.source.values;

/**
 * The session settings the replication connection runs with, so that PostgreSQL prints every value in the one
 * text form the decoders read. pgoutput renders tuple values with the types' output functions in the walsender
 * session, so these settings decide what a lane receives.
 *
 * <ul>
 *   <li>{@code DateStyle=ISO,MDY}: dates {@code 2024-03-01}, BC dates {@code 0044-03-15 BC};
 *   <li>{@code IntervalStyle=iso_8601}: intervals {@code P1Y2M3DT4H5M6.5S}, the form {@code PgInterval} reads;
 *   <li>{@code TimeZone=UTC}: timestamptz printed in UTC (the decoders accept any offset, see below);
 *   <li>{@code extra_float_digits=3}: floats printed with the shortest text that reads back exactly;
 *   <li>{@code lc_monetary=C}: money {@code -$1,234.56}, two fraction digits;
 *   <li>{@code bytea_output=hex}: bytea {@code \xdeadbeef}.
 * </ul>
 *
 * <p>pgjdbc sends its own {@code DateStyle=ISO}, {@code extra_float_digits} and {@code TimeZone} (the JVM's
 * default zone) as startup parameters, which PostgreSQL applies after {@code options}; so on a worker whose JVM
 * zone is not UTC the session's {@code TimeZone} is that zone. That is harmless: timestamptz values carry their
 * offset (even local-mean-time ones such as {@code +00:53:28}) and are converted to UTC by the decoder.
 */
public final class SessionSettings {

    /** The value of pgjdbc's {@code options} connection property ({@code PGProperty.OPTIONS}). */
    public static final String OPTIONS = "-c DateStyle=ISO,MDY -c IntervalStyle=iso_8601 -c TimeZone=UTC"
            + " -c extra_float_digits=3 -c lc_monetary=C -c bytea_output=hex";

    private SessionSettings() {}
}
