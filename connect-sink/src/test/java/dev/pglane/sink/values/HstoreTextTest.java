package dev.pglane.sink.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The JSON-object-to-hstore conversion on its own: escapes in, escapes out, and the shapes it refuses. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class HstoreTextTest {

    @Test
    void quotesEveryKeyAndValue() {
        assertEquals("\"a\"=>\"1\", \"b\"=>NULL", HstoreText.fromJson("{\"a\":\"1\",\"b\":null}"));
        assertEquals("", HstoreText.fromJson("{}"));
        assertEquals("", HstoreText.fromJson(" { } "));
    }

    @Test
    void jsonEscapesBecomeCharactersAndHstoreEscapesQuoteAndBackslash() {
        assertEquals(
                "\"q\\\"k\"=>\"v\\\\w\", \"t\"=>\"\t\n/é😀\"",
                HstoreText.fromJson("{ \"q\\\"k\" : \"v\\\\w\" , \"t\":\"\\t\\n\\/\\u00e9\\ud83d\\ude00\" }"));
    }

    @Test
    void refusesOtherShapes() {
        for (String json : new String[] {
            "",
            "[]",
            "{\"a\":1}",
            "{\"a\":{}}",
            "{\"a\":\"1\"",
            "{\"a\":\"1\"} x",
            "{\"a\" \"1\"}",
            "{\"a\":\"\\x\"}",
            "{\"a\":\"\\u12\"}",
            "{\"a\":\"\\u12zz\"}",
            "{\"a\":\"open}"
        }) {
            assertThrows(IllegalArgumentException.class, () -> HstoreText.fromJson(json), json);
        }
    }
}
