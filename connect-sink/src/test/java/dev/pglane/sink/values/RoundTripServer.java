package dev.pglane.sink.values;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.wire.types.ColumnSchemas;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Schema;

/**
 * A real PostgreSQL 17 as a sink target, for one test class. {@link #assertWrites} is the round trip the brief asks
 * for: the column's field schema exactly as the source builds it ({@link ColumnSchemas} over the real column's
 * type), a Connect value built by hand, {@link PgText#of}, an {@code INSERT} binding the text untyped as the apply
 * step does, and the stored value compared with the original PostgreSQL value by the server's own output.
 */
final class RoundTripServer implements AutoCloseable {

    private final EmbeddedPostgres server;
    private final Connection session;

    private RoundTripServer(EmbeddedPostgres server, Connection session) {
        this.server = server;
        this.session = session;
    }

    /** Starts a server with hstore (in a schema off the search path), citext, ltree and the given setup statements. */
    static RoundTripServer start(String... setup) throws IOException, SQLException {
        EmbeddedPostgres server = EmbeddedPostgres.builder().start();
        RoundTripServer target =
                new RoundTripServer(server, server.getPostgresDatabase().getConnection());
        target.execute(
                "CREATE SCHEMA ext",
                "CREATE EXTENSION hstore WITH SCHEMA ext",
                "CREATE EXTENSION citext",
                "CREATE EXTENSION ltree");
        target.execute(setup);
        return target;
    }

    /**
     * Writes {@code value} into a fresh column of {@code sqlType} through {@link PgText} and asserts that the stored
     * value prints as {@code original} (PostgreSQL input text of the expected value) does after a cast to the type.
     *
     * @return the text PgText produced
     */
    String assertWrites(String sqlType, NumericMapping mode, Object value, String original) throws SQLException {
        String text = write(sqlType, mode, value);
        String expected;
        try (PreparedStatement st = session.prepareStatement("SELECT CAST(CAST(? AS text) AS " + sqlType + ")::text")) {
            st.setString(1, original);
            expected = single(st);
        }
        assertEquals(expected, text("SELECT c::text FROM written"), () -> sqlType + " written as '" + text + "'");
        return text;
    }

    String assertWrites(String sqlType, Object value, String original) throws SQLException {
        return assertWrites(sqlType, NumericMapping.PRECISE, value, original);
    }

    /** Writes {@code value} into a fresh table {@code written(c sqlType)}; returns PgText's text. */
    String write(String sqlType, NumericMapping mode, Object value) throws SQLException {
        execute("DROP TABLE IF EXISTS written", "CREATE TABLE written (c " + sqlType + ")");
        String text = PgText.of(fieldSchema(mode), value);
        try (PreparedStatement st = session.prepareStatement("INSERT INTO written (c) VALUES (?)")) {
            st.setObject(1, text, Types.OTHER);
            st.executeUpdate();
        }
        return text;
    }

    /** The field schema the source builds for column {@code c} of table {@code written}. */
    private Schema fieldSchema(NumericMapping mode) throws SQLException {
        try (Statement st = session.createStatement();
                ResultSet rs = st.executeQuery("SELECT atttypid, atttypmod FROM pg_attribute"
                        + " WHERE attrelid = 'written'::regclass AND attname = 'c'")) {
            rs.next();
            return ColumnSchemas.forColumn(resolve(rs.getInt(1), rs.getInt(2)), false, mode);
        }
    }

    /** The column type as the source's catalog lookup describes it: built-ins, arrays, domains, enums, the rest. */
    private PgColumnType resolve(int oid, int typmod) throws SQLException {
        if (PgType.byOid(oid) != null || PgType.byArrayOid(oid) != null) {
            return PgColumnType.of(oid, typmod);
        }
        try (PreparedStatement st = session.prepareStatement("SELECT typname, typtype, typelem, typbasetype,"
                + " typtypmod, typcategory, format_type(oid, ?) FROM pg_type WHERE oid = ?")) {
            st.setInt(1, typmod);
            st.setInt(2, oid);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                String name = rs.getString(1);
                String formatted = rs.getString(7);
                if (rs.getString(2).equals("d")) {
                    return PgColumnType.domain(oid, name, formatted, resolve(rs.getInt(4), rs.getInt(5)));
                }
                if (rs.getString(6).equals("A")) {
                    return PgColumnType.arrayOf(oid, resolve(rs.getInt(3), typmod));
                }
                if (rs.getString(2).equals("e")) {
                    return PgColumnType.enumType(oid, name, formatted, enumLabels(oid));
                }
                return PgColumnType.named(oid, name, typmod, formatted);
            }
        }
    }

    private List<String> enumLabels(int oid) throws SQLException {
        List<String> labels = new ArrayList<>();
        try (PreparedStatement st =
                session.prepareStatement("SELECT enumlabel FROM pg_enum WHERE enumtypid = ? ORDER BY enumsortorder")) {
            st.setInt(1, oid);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    labels.add(rs.getString(1));
                }
            }
        }
        return labels;
    }

    /** The single value {@code query} returns, as text. */
    String text(String query) throws SQLException {
        try (PreparedStatement st = session.prepareStatement(query)) {
            return single(st);
        }
    }

    private static String single(PreparedStatement st) throws SQLException {
        try (ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    void execute(String... statements) throws SQLException {
        try (Statement st = session.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        }
    }

    @Override
    public void close() throws Exception {
        session.close();
        server.close();
    }
}
