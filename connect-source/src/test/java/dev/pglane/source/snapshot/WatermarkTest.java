package dev.pglane.source.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class WatermarkTest {

    @Test
    void aWatermarkReadsBackAndOtherContentIsNone() {
        Watermark high = new Watermark("my/shop", 17, 3, true);
        assertEquals("my/shop/17/3/H", high.content());
        assertEquals(high, Watermark.parse(high.content()));
        assertNull(Watermark.parse("hello"));
        assertNull(Watermark.parse("shop/x/3/H"));
        assertNull(Watermark.parse("shop/1/3/Q"));
    }
}
