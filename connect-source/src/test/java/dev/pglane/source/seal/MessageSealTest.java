package dev.pglane.source.seal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.wire.Lsn;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MessageSealTest {
    private static final String PREFIX = "pglane.signal";
    private static final String PAYLOAD = "{\"connector\":\"shop\",\"id\":\"1\",\"type\":\"stop-snapshot\"}";

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aSealedPayloadOpensAsAuthenticUnderItsOwnKeyAndPrefixOnly() {
        MessageSeal seal = MessageSeal.generated("shop");
        String sealed = seal.seal(PREFIX, PAYLOAD);

        assertEquals(new MessageSeal.Opened(PAYLOAD, true), seal.open(PREFIX, bytes(sealed)));
        assertEquals(
                new MessageSeal.Opened(PAYLOAD, false),
                MessageSeal.generated("shop").open(PREFIX, bytes(sealed)),
                "another key");
        assertFalse(seal.open("pglane.snapshot", bytes(sealed)).authentic(), "a signal's seal is no watermark's");
        assertFalse(seal.open(PREFIX, bytes(sealed.replace("stop", "exec"))).authentic(), "a changed payload");
    }

    @Test
    void contentWithoutASealIsAllPayloadAndNotAuthentic() {
        MessageSeal seal = MessageSeal.configured("shop", "a key of sixteen characters");
        assertEquals(new MessageSeal.Opened(PAYLOAD, false), seal.open(PREFIX, bytes(PAYLOAD)));
        assertEquals(new MessageSeal.Opened("", false), seal.open(PREFIX, new byte[0]));
        String almost = "!!!!!!!!!!!!!!!!!!!!!!." + PAYLOAD; // a seal's shape, not base64url
        assertFalse(seal.open(PREFIX, bytes(almost)).authentic());
    }

    @Test
    void theKeptKeyOpensWhatTheGeneratedOneSealedAndAConfiguredOneIsKeptNowhere() {
        MessageSeal generated = MessageSeal.generated("shop");
        assertNotNull(generated.keptKey());
        MessageSeal kept = MessageSeal.kept("shop", generated.keptKey());
        assertTrue(kept.open(PREFIX, bytes(generated.seal(PREFIX, PAYLOAD))).authentic());
        assertEquals(generated.keptKey(), kept.keptKey());

        MessageSeal configured = MessageSeal.configured("shop", "a key of sixteen characters");
        assertNull(configured.keptKey());
        assertTrue(MessageSeal.configured("shop", "a key of sixteen characters")
                .open(PREFIX, bytes(configured.seal(PREFIX, PAYLOAD)))
                .authentic());
        assertThrows(IllegalArgumentException.class, () -> MessageSeal.kept("shop", "c2hvcnQ"));
    }

    @Test
    void refusalsAreAllCountedButWarnedOfOnceAMinute() {
        RefusedMessages refused = new RefusedMessages();
        try (LogCapture log = LogCapture.start()) {
            for (int i = 0; i < 1000; i++) {
                refused.unsealed(PREFIX, Lsn.valueOf(0x100 + i));
            }
            assertEquals(1000, refused.total());
            assertEquals(1, log.warnings().size(), log.warnings().toString());
            assertTrue(log.warnings()
                    .get(0)
                    .contains("A pglane.signal message at 0/100 addressed to this connector"
                            + " is ignored: it does not carry this connector's seal"));
        }
    }
}
