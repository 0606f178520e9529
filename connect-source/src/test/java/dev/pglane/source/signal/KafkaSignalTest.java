package dev.pglane.source.signal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class KafkaSignalTest {
    @Test
    void aDebeziumShapedValueBecomesTheMessageOfItsSignal() {
        SignalMessage message = KafkaSignal.of(
                "shop",
                "{\"type\": \"execute-snapshot\", \"data\": {\"data-collections\": [\"public.orders\"],"
                        + " \"type\": \"incremental\"}}",
                0,
                42);
        assertEquals("kafka-0-42", message.id(), "named by partition and offset when it names itself not");
        Signal signal = SignalMessage.parse(message.content().getBytes(StandardCharsets.UTF_8))
                .signal();
        assertEquals(Signal.Kind.EXECUTE_SNAPSHOT, signal.kind());
        assertEquals(List.of("public.orders"), signal.tables());
        assertEquals(
                "shop",
                SignalMessage.parse(message.content().getBytes(StandardCharsets.UTF_8))
                        .topicPrefix());
    }

    @Test
    void itsOwnIdWinsAndSignalsWithoutDataNeedNone() {
        SignalMessage message = KafkaSignal.of("shop", "{\"id\": \"p1\", \"type\": \"pause-snapshot\"}", 3, 7);
        assertEquals("p1", message.id());
        assertEquals(Signal.Kind.PAUSE_SNAPSHOT, message.signal().kind());
    }

    @Test
    void whatTheReaderWouldRefuseIsRefusedBeforeItReachesTheWal() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KafkaSignal.of("shop", "not json", 0, 1))
                .getMessage()
                .contains("not JSON"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> KafkaSignal.of("shop", "{\"type\": \"drop-table\"}", 0, 1))
                .getMessage()
                .contains("unknown signal type 'drop-table'"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> KafkaSignal.of("shop", "{\"type\": \"execute-snapshot\", \"data\": {}}", 0, 1))
                .getMessage()
                .contains("data-collections"));
    }

    @Test
    void aMessageWithoutAConnectorIsNone() {
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> SignalMessage.parse("{\"id\": 1}".getBytes(StandardCharsets.UTF_8)))
                .getMessage()
                .contains("names no connector"));
    }
}
