package dev.pglane.sink.values;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.wire.types.ColumnSchemas;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.ValueMappings;
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
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real PostgreSQL 17 as a sink target, for one test class. {@link #assertWrites} is the round trip the brief asks
 * for: the column's field schema exactly as the source builds it ({@link ColumnSchemas} over the real column's
 * type), a Connect value built by hand, {@link PgText#of}, an {@code INSERT} binding the text untyped as the apply
 * step does, and the stored value compared with the original PostgreSQL value by the server's own output.
 */
final class RoundTripServer implements BeforeAllCallback, AfterAllCallback {

    private final String[] setup;
    private EmbeddedPostgres server;
    private Connection session;

    /**
     * A server with the types the tests write: hstore (in a schema off the search path, so its {@code format_type}
     * is qualified), citext, ltree, the enum {@code mood}, the domains {@code positive} (over integer) and
     * {@code price} (over numeric(10,2)); {@code setup} then runs in the test session. Register it with
     * {@code @RegisterExtension} on a static field.
     */
    RoundTripServer(String... setup) {
        this.setup = setup;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException, SQLException {
        server = EmbeddedPostgres.builder().start();
        session = server.getPostgresDatabase().getConnection();
        execute(
                "CREATE SCHEMA ext",
                "CREATE EXTENSION hstore WITH SCHEMA ext",
                "CREATE EXTENSION citext",
                "CREATE EXTENSION ltree",
                "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy go lucky')",
                "CREATE DOMAIN positive AS integer CHECK (VALUE > 0)",
                "CREATE DOMAIN price AS numeric(10,2) CHECK (VALUE >= 0)");
        execute(setup);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException, SQLException {
        session.close();
        server.close();
    }

    /**
     * Writes {@code value} into a fresh column of {@code sqlType} through {@link PgText} and asserts that the stored
     * value prints as {@code original} (PostgreSQL input text of the expected value) does after a cast to the type.
     *
     * @return the text PgText produced
     */
    String assertWrites(String sqlType, NumericMapping mode, Object value, String original) throws SQLException {
        return assertWrites(sqlType, ValueMappings.of(mode), value, original);
    }

    /** {@link #assertWrites(String, NumericMapping, Object, String)} under the source's {@code mappings}. */
    String assertWrites(String sqlType, ValueMappings mappings, Object value, String original) throws SQLException {
        String text = write(sqlType, mappings, value);
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
    String write(String sqlType, ValueMappings mappings, Object value) throws SQLException {
        execute("DROP TABLE IF EXISTS written", "CREATE TABLE written (c " + sqlType + ")");
        String text = PgText.of(fieldSchema(mappings), value);
        try (PreparedStatement st = session.prepareStatement("INSERT INTO written (c) VALUES (?)")) {
            st.setObject(1, text, Types.OTHER);
            st.executeUpdate();
        }
        return text;
    }

    /** The field schema the source builds for column {@code c} of table {@code written}. */
    private Schema fieldSchema(ValueMappings mappings) throws SQLException {
        try (Statement st = session.createStatement();
                ResultSet rs = st.executeQuery("SELECT atttypid, atttypmod FROM pg_attribute"
                        + " WHERE attrelid = 'written'::regclass AND attname = 'c'")) {
            rs.next();
            return ColumnSchemas.forColumn(resolve(rs.getInt(1), rs.getInt(2)), false, mappings);
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
}
