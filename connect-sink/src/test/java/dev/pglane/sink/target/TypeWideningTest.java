package dev.pglane.sink.target;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TypeWideningTest {

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "smallint | integer | true",
                "integer | bigint | true",
                "smallint | bigint | true",
                "bigint | integer | false",
                "integer | integer | false",
                "real | double precision | true",
                "double precision | real | false",
                "character varying(10) | character varying(20) | true",
                "character varying(20) | character varying(10) | false",
                "character varying(10) | character varying | true",
                "character varying(10) | text | true",
                "character varying | text | true",
                "text | character varying(10) | false",
                "numeric(10,2) | numeric(12,2) | true",
                "numeric(10,2) | numeric(12,3) | false",
                "numeric(10,2) | numeric | true",
                "numeric | numeric(10,2) | false",
                "integer | text | false",
                "text | integer | false",
                "timestamp without time zone | timestamp with time zone | false"
            })
    void onlyChangesThatKeepEveryValueWiden(String from, String to, boolean widens) {
        assertEquals(widens, TypeWidening.widens(from, to));
    }
}
