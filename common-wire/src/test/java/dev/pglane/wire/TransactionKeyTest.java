package dev.pglane.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

class TransactionKeyTest {

    @Test
    void roundTrips() {
        Struct key = TransactionKey.of(4_294_967_295L);
        assertEquals("dev.pglane.wire.TransactionKey", key.schema().name());
        assertEquals(1, key.schema().version());
        assertEquals(4_294_967_295L, key.getInt64("xid"));
        assertEquals(4_294_967_295L, TransactionKey.xid(key));
        assertEquals(0L, TransactionKey.xid(TransactionKey.of(Xid.NONE)));
    }

    @Test
    void rejectsForeignKeysNamingTheProblem() {
        WireFormatException notStruct = assertThrows(WireFormatException.class, () -> TransactionKey.xid("42"));
        assertTrue(notStruct.getMessage().contains("java.lang.String"), notStruct.getMessage());

        Schema other = SchemaBuilder.struct()
                .name("io.debezium.Key")
                .field("xid", Schema.INT64_SCHEMA)
                .build();
        WireFormatException name =
                assertThrows(WireFormatException.class, () -> TransactionKey.xid(new Struct(other).put("xid", 1L)));
        assertTrue(name.getMessage().contains("io.debezium.Key"), name.getMessage());

        Schema noXid = SchemaBuilder.struct()
                .name(TransactionKey.SCHEMA_NAME)
                .field("id", Schema.STRING_SCHEMA)
                .build();
        WireFormatException missing =
                assertThrows(WireFormatException.class, () -> TransactionKey.xid(new Struct(noXid).put("id", "1")));
        assertEquals("key field 'xid': required field is missing (value: null)", missing.getMessage());

        WireFormatException range = assertThrows(
                WireFormatException.class, () -> TransactionKey.xid(new Struct(TransactionKey.SCHEMA).put("xid", -5L)));
        assertTrue(range.getMessage().contains("'xid'") && range.getMessage().contains("-5"), range.getMessage());
    }

    @Test
    void rejectsWrongFieldType() {
        Schema wrong = SchemaBuilder.struct()
                .name(TransactionKey.SCHEMA_NAME)
                .field("xid", Schema.STRING_SCHEMA)
                .build();
        WireFormatException e =
                assertThrows(WireFormatException.class, () -> TransactionKey.xid(new Struct(wrong).put("xid", "7")));
        assertTrue(e.getMessage().contains("'xid'") && e.getMessage().contains("INT64"), e.getMessage());
    }
}
