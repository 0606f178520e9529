package dev.pglane.sink.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pglane.sink.apply.TargetServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Type modifiers against a real server: each one {@link TypeModifier} accepts is one the server formats and creates a
 * column of, and each one it refuses at the edge of a range is one the server refuses too.
 */
class TypeModifierTest {
    @RegisterExtension
    static final TargetServer target = new TargetServer();

    private static int numeric(int precision, int scale) {
        return ((precision << 16) | (scale & 0x7FF)) + 4;
    }

    /** Creates a column of {@code type} formatted by the server with {@code typmod}, as auto.create does. */
    private static void createColumn(String type, int typmod) throws SQLException {
        try (Connection c = target.connect()) {
            String formatted;
            try (PreparedStatement st =
                    c.prepareStatement("SELECT pg_catalog.format_type(pg_catalog.to_regtype(?), ?)")) {
                st.setString(1, type);
                st.setInt(2, typmod);
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    formatted = rs.getString(1);
                }
            }
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TEMPORARY TABLE t (c " + formatted + ")");
            }
        }
    }

    @ParameterizedTest(name = "{0} with typmod {1}")
    @CsvSource({
        "character varying, 5",
        "character varying, 10485764",
        "character, 5",
        "bit, 1",
        "bit varying, 83886080",
        "numeric, 65540",
        "numeric, 65536004",
        "time without time zone, 0",
        "timestamp with time zone, 6",
        "interval, 2147483647",
        "interval, 470286339",
        "interval, 458751",
        "integer, 42",
    })
    void whatItAcceptsTheServerCreates(String type, int typmod) throws SQLException {
        assertNull(TypeModifier.problem(type, Integer.toString(typmod)));
        createColumn(type, typmod);
    }

    @Test
    void whatItRefusesAtTheEdgesTheServerRefusesToo() throws SQLException {
        Object[][] refused = {
            {"character varying", 10_485_765},
            {"bit", 83_886_081},
            {"numeric", numeric(1001, 0)},
            {"numeric", numeric(10, 1001)},
            {"numeric", numeric(0, 0)},
        };
        for (Object[] c : refused) {
            String type = (String) c[0];
            int typmod = (Integer) c[1];
            assertEquals(true, TypeModifier.problem(type, Integer.toString(typmod)) != null, type + " " + typmod);
            assertThrows(SQLException.class, () -> createColumn(type, typmod), type + " " + typmod);
        }
    }

    @Test
    void anIntervalFieldMaskItRefusesTheServerCannotEvenFormat() throws SQLException {
        int typmod = (5 << 16) | 0xFFFF;
        assertEquals("its field mask 5 is none interval accepts", TypeModifier.problem("interval", "" + typmod));
        assertThrows(SQLException.class, () -> createColumn("interval", typmod));
    }

    @Test
    void aModifierMustBeADecimalInt4OfMinusOneOrMore() {
        assertEquals("it is not a decimal int4", TypeModifier.problem("numeric(10,2)", "six"));
        assertEquals("it is not a decimal int4", TypeModifier.problem("numeric", "99999999999"));
        assertEquals("it is below -1", TypeModifier.problem("integer", "-2"));
        assertNull(TypeModifier.problem("numeric(10,2)", "-1"));
        assertNull(TypeModifier.problem("numeric(10,2)", null));
        assertNull(TypeModifier.problem("public.\"My Type\"", "123456"), "an extension's type: the target decides");
        assertEquals("its precision 7 is outside 0 to 6", TypeModifier.problem("timestamp(7) with time zone[]", "7"));
        assertEquals("timestamp with time zone", TypeModifier.baseName("timestamp(3) with time zone[]"));
    }
}
