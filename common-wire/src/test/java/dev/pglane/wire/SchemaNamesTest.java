package dev.pglane.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SchemaNamesTest {

    @Test
    void keepsValidNames() {
        assertEquals("shop.public.orders.Value", SchemaNames.rowValue("shop", "public", "orders"));
    }

    @Test
    void makesEveryComponentAValidAvroName() {
        assertEquals(
                "my_shop.eu.Sales_Data._2024_q1.Value", SchemaNames.rowValue("my-shop.eu", "Sales Data", "2024-q1"));
        assertEquals("shop._.t.Value", SchemaNames.rowValue("shop", "", "t"));
        assertEquals("_", SchemaNames.avroName(""));
        assertEquals("a_b", SchemaNames.avroName("a$b"));
    }
}
