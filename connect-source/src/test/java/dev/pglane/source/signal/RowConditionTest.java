package dev.pglane.source.signal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RowConditionTest {
    /** Marks what the SQL quotes, so the test sees which text went in as what. */
    private static final RowCondition.Quoting MARKED = new RowCondition.Quoting() {
        @Override
        public String identifier(String name) {
            return "<" + name + ">";
        }

        @Override
        public String literal(String value) {
            return "[" + value + "]";
        }
    };

    @Test
    void aComparisonBecomesAQuotedColumnAndAQuotedLiteral() throws SQLException {
        assertEquals("(<region> = [eu])", sql("region = 'eu'"));
        assertEquals("(<region> = [it's])", sql("Region='it''s'"));
        assertEquals("(<Mixed Case> <> [-12.5e3])", sql("\"Mixed Case\" != -12.5e3"));
        assertEquals("(<a\"b> >= [+1])".replace("+", ""), sql("\"a\"\"b\" >= +1"));
        assertEquals("(<flag> = [true])", sql("flag = TRUE"));
    }

    @Test
    void andOrNotAndParenthesesKeepTheirPrecedence() throws SQLException {
        assertEquals("((<a> = [1]) OR ((<b> < [2]) AND (NOT (<c> IS NULL))))", sql("a = 1 OR b < 2 AND NOT c IS NULL"));
        assertEquals("(((<a> = [1]) OR (<b> < [2])) AND (<c> IS NOT NULL))", sql("(a = 1 OR b < 2) and c is not null"));
    }

    @Test
    void inAndLikeTakeLiteralsOnly() throws SQLException {
        assertEquals("(<region> IN ([eu], [uk]))", sql("region IN ('eu', 'uk')"));
        assertEquals("(<id> NOT IN ([1], [2], [3]))", sql("id not in (1,2,3)"));
        assertEquals("(<v> NOT LIKE [v%])", sql("v NOT LIKE 'v%'"));
    }

    @Test
    void itNamesItsColumnsAsTheTableNamesThem() {
        assertEquals(
                Set.of("region", "Id", "note"),
                RowCondition.parse("REGION = 'x' AND (\"Id\" > 3 OR note IS NULL)")
                        .columns());
    }

    /** The examples and every other way out of a comparison: each refused before any SQL exists. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "CAST((SELECT rolpassword FROM pg_authid LIMIT 1) AS int) = 1",
                "id = CAST((SELECT rolpassword FROM pg_authid LIMIT 1) AS int)",
                "pg_catalog.pg_sleep(60) IS NULL",
                "pg_sleep(60) IS NULL",
                "id = pg_sleep(60)",
                "id IN (SELECT oid FROM pg_authid)",
                "EXISTS (SELECT 1 FROM pg_authid)",
                "pg_terminate_backend(123) = true",
                "id = 1; DROP TABLE t",
                "true) TO STDOUT; DROP TABLE a; --",
                "id = 1 -- comment",
                "id = 1 /* comment */",
                "id = '1'::int",
                "id % 7 = 0",
                "id = other_column",
                "id + 1 = 2",
                "public.t.id = 1",
                "id = $1",
                "id = E'\\x41'",
                "id = 'unterminated",
                "\"\" = 1",
                "id == 1",
                "id = 1 AND",
                "(id = 1",
                "id = 1)",
                "id = NULL",
                "id IN ()",
                "id LIKE 1",
                "true",
                "NOT",
                "",
                "   ",
            })
    void anythingElseIsRefused(String condition) {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> RowCondition.parse(condition));
        assertTrue(refused.getMessage().startsWith("a filter's condition"), refused.getMessage());
    }

    @Test
    void aNulInAStringIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> RowCondition.parse("note = 'a\0b'"));
    }

    @Test
    void sizeAndNestingAreBounded() {
        assertThrows(IllegalArgumentException.class, () -> RowCondition.parse("a = '" + "x".repeat(5000) + "'"));
        String deep = "(".repeat(40) + "a = 1" + ")".repeat(40);
        assertThrows(IllegalArgumentException.class, () -> RowCondition.parse(deep));
        String nots = "NOT ".repeat(40) + "a = 1";
        assertThrows(IllegalArgumentException.class, () -> RowCondition.parse(nots));
        assertEquals(
                List.of("a"),
                List.copyOf(RowCondition.parse("(".repeat(20) + "a = 1" + ")".repeat(20))
                        .columns()));
    }

    @Test
    void itIsEqualByItsText() {
        assertEquals(RowCondition.parse("a = 1"), RowCondition.parse("a = 1"));
        assertEquals("a = 1", RowCondition.parse("a = 1").text());
    }

    private static String sql(String condition) throws SQLException {
        return RowCondition.parse(condition).toSql(MARKED);
    }
}
