package dev.pglane.sink.target;

import dev.pglane.connect.database.DatabaseEndpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a record's column type text into the type name the target server itself formats, for the DDL of
 * {@code auto.create} and {@code auto.evolve}. The text is only ever a bound parameter: {@code to_regtype}
 * parses it as a type name without running anything (and yields NULL for a type the target lacks), and
 * {@code format_type} prints the type it found with the modifier; the DDL uses that output. The modifier comes
 * from the record's {@code __pglane.typmod} as a number, or, for records of sources that did not send one, from
 * {@code to_regtypemod} on PostgreSQL 17 and later (earlier servers have no way to parse it: the column is then
 * created without a modifier).
 *
 * <p>Lookups go through a short-lived connection of their own, so that a refused text never aborts an apply
 * transaction; answers, also that the target has no such type, are cached ({@link #MAX_CACHED} of them, least
 * recently used forgotten first), so a text is looked up once however many records carry it. Thread-safe.
 */
public final class TargetTypes {
    /** PostgreSQL 17 added {@code to_regtypemod}. */
    private static final int TYPMOD_PARSER_SINCE = 170_000;

    private static final String RESOLVE = "SELECT pg_catalog.format_type(t.oid, COALESCE(?, t.typmod, -1)),"
            + " t.oid IS NOT NULL, COALESCE(?, t.typmod) IS NOT NULL FROM (SELECT pg_catalog.to_regtype(?) AS oid, "
            + "%s AS typmod) t";

    /**
     * Type texts and modifiers remembered, resolved or not: far more than a schema has, few enough that texts made up
     * by a writer of the topics cannot fill the memory. The least recently used is forgotten first; asked again, it
     * costs one more lookup.
     */
    static final int MAX_CACHED = 2048;

    private final DatabaseEndpoint endpoint;
    private final String applicationName;
    /** Answers by request, an empty one for a text the target has no type for, so it is not looked up again. */
    private final Map<Request, Optional<Resolved>> cache;

    /** A type as the target resolved it: its formatted name, and whether the modifier was known. */
    public record Resolved(String formatted, boolean modifierKnown) {}

    private record Request(String text, Integer typmod) {}

    public TargetTypes(DatabaseEndpoint endpoint, String applicationName) {
        this(endpoint, applicationName, MAX_CACHED);
    }

    /** For testing: {@code maxCached} answers remembered. */
    TargetTypes(DatabaseEndpoint endpoint, String applicationName, int maxCached) {
        this.endpoint = endpoint;
        this.applicationName = applicationName;
        this.cache = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Request, Optional<Resolved>> eldest) {
                return size() > maxCached;
            }
        };
    }

    /**
     * The target's name for type {@code text} with modifier {@code typmod}.
     *
     * @param typmod the type modifier the source sent, or {@code null} if it sent none
     * @return empty if the text is not a type name or the target has no such type
     * @throws SQLException if the lookup fails otherwise, with the server's SQLState, so that an apply worker
     *     classifies it like any other failure of its own statements (a lost connection is retried)
     */
    public Optional<Resolved> resolve(String text, Integer typmod) throws SQLException {
        if (TypeText.problem(text) != null) {
            return Optional.empty();
        }
        Request request = new Request(text, typmod);
        synchronized (cache) {
            Optional<Resolved> known = cache.get(request);
            if (known != null) {
                return known;
            }
        }
        Optional<Resolved> resolved = lookUp(request);
        synchronized (cache) {
            cache.put(request, resolved);
        }
        return resolved;
    }

    /** How many answers are remembered; for tests. */
    int cached() {
        synchronized (cache) {
            return cache.size();
        }
    }

    private Optional<Resolved> lookUp(Request request) throws SQLException {
        try (Connection connection = endpoint.connect(applicationName)) {
            String parsedTypmod =
                    serverVersion(connection) >= TYPMOD_PARSER_SINCE ? "pg_catalog.to_regtypemod(?)" : "?::int4";
            try (PreparedStatement st = connection.prepareStatement(RESOLVE.formatted(parsedTypmod))) {
                bindTypmod(st, 1, request.typmod());
                bindTypmod(st, 2, request.typmod());
                st.setString(3, request.text());
                if (parsedTypmod.startsWith("?")) {
                    st.setNull(4, Types.INTEGER);
                } else {
                    st.setString(4, request.text());
                }
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    return rs.getBoolean(2)
                            ? Optional.of(new Resolved(rs.getString(1), rs.getBoolean(3)))
                            : Optional.empty();
                }
            }
        } catch (SQLException e) {
            String state = String.valueOf(e.getSQLState());
            if (state.startsWith("42") || state.startsWith("22")) {
                return Optional.empty(); // before PostgreSQL 16, to_regtype raises a syntax error rather than NULL
            }
            throw new SQLException(
                    "Could not resolve type " + request.text() + " on " + endpoint.address() + ": " + e.getMessage(),
                    e.getSQLState(),
                    e);
        }
    }

    private static void bindTypmod(PreparedStatement st, int index, Integer typmod) throws SQLException {
        if (typmod == null) {
            st.setNull(index, Types.INTEGER);
        } else {
            st.setInt(index, typmod);
        }
    }

    private static int serverVersion(Connection connection) throws SQLException {
        try (PreparedStatement st =
                        connection.prepareStatement("SELECT pg_catalog.current_setting('server_version_num')::int4");
                ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
