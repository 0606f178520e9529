package dev.pglane.source.values;

import dev.pglane.wire.types.EpochDate;
import dev.pglane.wire.types.MicroTimestamp;
import dev.pglane.wire.types.ZonedTime;
import dev.pglane.wire.types.ZonedTimestamp;
import java.time.OffsetTime;

/**
 * Decoders of {@code date}, {@code time}, {@code timetz}, {@code timestamp} and {@code timestamptz}: the text is
 * read by {@link PgDateTimeText}, the value encoded by the wire codec of the type.
 */
enum DateTimeDecoder implements TextDecoder {
    /** {@code io.debezium.time.Date}; {@code ±infinity} as the codec's sentinels. */
    DATE {
        @Override
        public Object decode(String text) {
            return switch (text) {
                case "infinity" -> EpochDate.POSITIVE_INFINITY;
                case "-infinity" -> EpochDate.NEGATIVE_INFINITY;
                default -> EpochDate.encode(PgDateTimeText.date(text));
            };
        }
    },
    /**
     * {@code io.debezium.time.MicroTime}: microseconds since midnight, {@code 24:00:00} included (as
     * {@code MicroTime.END_OF_DAY}), which is exactly what the text parser counts.
     */
    TIME {
        @Override
        public Object decode(String text) {
            return PgDateTimeText.time(text);
        }
    },
    /** {@code io.debezium.time.ZonedTime}; {@code 24:00:00} has no {@link OffsetTime}, so it goes to text. */
    TIMETZ {
        @Override
        public Object decode(String text) {
            OffsetTime time = PgDateTimeText.timeWithOffset(text);
            return time == null ? UNREPRESENTABLE : ZonedTime.encode(time);
        }
    },
    /** {@code io.debezium.time.MicroTimestamp}; values past INT64 microseconds since 1970 go to text. */
    TIMESTAMP {
        @Override
        public Object decode(String text) {
            return switch (text) {
                case "infinity" -> MicroTimestamp.POSITIVE_INFINITY;
                case "-infinity" -> MicroTimestamp.NEGATIVE_INFINITY;
                default -> {
                    try {
                        yield MicroTimestamp.encode(PgDateTimeText.timestamp(text));
                    } catch (ArithmeticException beyondInt64) {
                        yield UNREPRESENTABLE;
                    }
                }
            };
        }
    },
    /** {@code io.debezium.time.ZonedTimestamp}: ISO-8601 in UTC, whatever offset the session printed. */
    TIMESTAMPTZ {
        @Override
        public Object decode(String text) {
            return switch (text) {
                case ZonedTimestamp.POSITIVE_INFINITY, ZonedTimestamp.NEGATIVE_INFINITY -> text;
                default -> ZonedTimestamp.encode(PgDateTimeText.timestampWithOffset(text));
            };
        }
    }
}
