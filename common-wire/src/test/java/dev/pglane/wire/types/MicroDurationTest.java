package dev.pglane.wire.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.Test;

class MicroDurationTest {

    @Test
    void countsMonthsAsDebeziumDoes() {
        assertEquals(2_629_800_000_000L, MicroDuration.of(new PgInterval(1, 0, 0)), "30.4375 days");
        assertEquals(31_557_600_000_000L, MicroDuration.of(new PgInterval(12, 0, 0)), "365.25 days");
        assertEquals(86_400_000_000L, MicroDuration.of(new PgInterval(0, 1, 0)), "a day is 24 hours");
        assertEquals(-1L, MicroDuration.of(new PgInterval(0, 0, -1)));
        assertEquals(
                -93_784_500_001L,
                MicroDuration.of(new PgInterval(0, -1, -(2 * 3_600_000_000L + 3 * 60_000_000L + 4_500_001L))));
        assertEquals(1_000_000_000_000_000L, MicroDuration.of(new PgInterval(0, 0, 1_000_000_000_000_000L)));
    }

    @Test
    void refusesWhatHasNoCount() {
        assertThrows(IllegalArgumentException.class, () -> MicroDuration.of(PgInterval.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> MicroDuration.of(PgInterval.NEGATIVE_INFINITY));
        IllegalArgumentException tooLong =
                assertThrows(IllegalArgumentException.class, () -> MicroDuration.of(new PgInterval(3_600_000, 0, 0)));
        assertEquals("interval P300000Y0M0DT0H0M0S is beyond a MicroDuration", tooLong.getMessage());
        // PostgreSQL's longest time part: the sum in double rounds up past the largest long
        assertThrows(IllegalArgumentException.class, () -> MicroDuration.of(new PgInterval(0, 0, Long.MAX_VALUE)));
    }

    @Test
    void isAnInt64NamedAsDebeziumNamesIt() {
        Schema schema = MicroDuration.builder().build();
        assertEquals(Schema.Type.INT64, schema.type());
        assertEquals("io.debezium.time.MicroDuration", schema.name());
    }
}
