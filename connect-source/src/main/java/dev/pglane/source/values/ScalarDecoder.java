package dev.pglane.source.values;

import dev.pglane.wire.types.Bits;
import dev.pglane.wire.types.MicroDuration;
import dev.pglane.wire.types.PgInterval;
import java.util.HexFormat;

/** Decoders of the fixed-form scalar types: booleans, integers, floats, bytea, bit strings and intervals. */
enum ScalarDecoder implements TextDecoder {
    /** {@code boolean}: the output function prints {@code t} or {@code f}. */
    BOOL {
        @Override
        public Object decode(String text) {
            return switch (text) {
                case "t" -> Boolean.TRUE;
                case "f" -> Boolean.FALSE;
                default -> throw new IllegalArgumentException("not a boolean (t or f)");
            };
        }
    },
    INT16 {
        @Override
        public Object decode(String text) {
            return Short.parseShort(text);
        }
    },
    INT32 {
        @Override
        public Object decode(String text) {
            return Integer.parseInt(text);
        }
    },
    /** {@code bigint} and the unsigned 32-bit {@code oid}/{@code xid}/{@code cid}. */
    INT64 {
        @Override
        public Object decode(String text) {
            return Long.parseLong(text);
        }
    },
    /** The unsigned 64-bit {@code xid8}: past the largest signed long, its text goes to {@code text_values}. */
    UNSIGNED_INT64 {
        @Override
        public Object decode(String text) {
            long value = Long.parseUnsignedLong(text);
            return value < 0 ? UNREPRESENTABLE : value;
        }
    },
    /**
     * {@code real}. {@code NaN}, {@code Infinity} and {@code -Infinity} travel in {@code text_values}: Kafka's
     * JsonConverter writes them as strings and reads them back as 0.0, so a typed field would lose them silently.
     */
    FLOAT32 {
        @Override
        public Object decode(String text) {
            float value = Float.parseFloat(text);
            return Float.isFinite(value) ? value : UNREPRESENTABLE;
        }
    },
    /** {@code double precision}, with its specials in {@code text_values} as for {@code real}. */
    FLOAT64 {
        @Override
        public Object decode(String text) {
            return finiteOrText(Double.parseDouble(text));
        }
    },
    /** {@code bytea} in the hex output format ({@code bytea_output=hex}): {@code \x} then two digits a byte. */
    BYTEA {
        @Override
        public Object decode(String text) {
            if (!text.startsWith("\\x")) {
                throw new IllegalArgumentException("bytea is not in hex format (bytea_output=hex)");
            }
            return HexFormat.of().parseHex(text, 2, text.length());
        }
    },
    /** {@code bit(1)}, which travels as a BOOLEAN. */
    BIT_FLAG {
        @Override
        public Object decode(String text) {
            return switch (text) {
                case "1" -> Boolean.TRUE;
                case "0" -> Boolean.FALSE;
                default -> throw new IllegalArgumentException("not a single bit");
            };
        }
    },
    /** {@code bit(n)} for n &gt; 1, as {@code io.debezium.data.Bits}. */
    BITS {
        @Override
        public Object decode(String text) {
            return Bits.encode(text);
        }
    },
    /** {@code interval} in {@code IntervalStyle=iso_8601}, re-rendered in the wire's fixed six-part form. */
    INTERVAL {
        @Override
        public Object decode(String text) {
            return PgInterval.parse(text).toIso();
        }
    },
    /**
     * {@code interval} as Debezium's {@code MicroDuration} count ({@code interval.handling.mode=numeric}); an
     * infinite one, or one too long to count, as its text in {@code text_values}.
     */
    INTERVAL_MICROS {
        @Override
        public Object decode(String text) {
            PgInterval interval = PgInterval.parse(text);
            try {
                return MicroDuration.of(interval);
            } catch (IllegalArgumentException e) {
                return UNREPRESENTABLE;
            }
        }
    };

    /** A finite double as itself; NaN and the infinities as {@link #UNREPRESENTABLE} (see {@link #FLOAT32}). */
    static Object finiteOrText(double value) {
        return Double.isFinite(value) ? value : UNREPRESENTABLE;
    }
}
