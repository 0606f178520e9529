package dev.pglane.source.pgoutput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProtocolVersionTest {

    @ParameterizedTest
    @CsvSource({
        "140000, V2",
        "140019, V2",
        "149999, V2",
        "150000, V3",
        "150014, V3",
        "160000, V4",
        "170006, V4",
        "180001, V4",
        "190000, V4"
    })
    void picksTheNewestVersionTheServerSpeaks(int serverVersionNum, ProtocolVersion expected) {
        assertEquals(expected, ProtocolVersion.forServer(serverVersionNum));
    }

    @Test
    void numbersAreTheProtoVersionOptionValues() {
        assertEquals(2, ProtocolVersion.V2.number());
        assertEquals(3, ProtocolVersion.V3.number());
        assertEquals(4, ProtocolVersion.V4.number());
    }

    @Test
    void onlyPostgres16AndLaterTakeTheOriginOption() {
        assertEquals(false, ProtocolVersion.forServer(150_014).filtersOrigin());
        assertEquals(true, ProtocolVersion.forServer(160_000).filtersOrigin());
    }

    @ParameterizedTest
    @CsvSource({"130012, 13.12", "100000, 10.0", "90624, 9.6"})
    void refusesServersBefore14NamingTheirVersion(int serverVersionNum, String shown) {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> ProtocolVersion.forServer(serverVersionNum));
        assertEquals("PostgreSQL " + shown + " is not supported; pglane needs 14 or newer", refused.getMessage());
    }
}
