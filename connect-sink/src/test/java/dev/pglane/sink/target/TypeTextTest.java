package dev.pglane.sink.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TypeTextTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "integer",
                "character varying(10)",
                "numeric(12,2)",
                "timestamp(3) with time zone",
                "interval day to second(3)",
                "integer[]",
                "character varying(10)[]",
                "bit varying(5)[][]",
                "integer[3]",
                "public.hstore",
                "\"char\"",
                "double precision",
                "\"My Schema\".\"My \"\"Type\"\"\"",
                "kinds.\"Mood\"[]",
                "ext$1.typ_2"
            })
    void whatFormatTypePrintsPasses(String text) {
        assertNull(TypeText.problem(text), text);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "int); DROP TABLE x; --",
                "text); COPY x TO PROGRAM 'id'; --",
                "int -- comment",
                "int/* */",
                "int;",
                "'x'",
                "int(",
                "int(a)",
                "int(1,)",
                "int[",
                "int[]x",
                "(1)",
                "a..b",
                "a.",
                ".a",
                "int  x",
                "int ",
                " int",
                "x\u0000",
                "\"unclosed",
                "int::text",
                "E'\\\\x'"
            })
    void anythingElseIsRefused(String text) {
        assertNotNull(TypeText.problem(text), text);
    }

    @Test
    void theProblemSaysWhereItIs() {
        assertEquals("';' at position 4 is not part of a type name", TypeText.problem("int;"));
        assertEquals("it is empty", TypeText.problem(""));
        assertEquals("it is empty", TypeText.problem(null));
    }
}
