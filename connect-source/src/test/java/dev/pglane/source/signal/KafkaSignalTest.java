package dev.pglane.source.signal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        Signal signal = SignalMessage.parse(message.content()).signal();
        assertEquals(Signal.Kind.EXECUTE_SNAPSHOT, signal.kind());
        assertEquals(List.of("public.orders"), signal.tables());
        assertEquals("shop", SignalMessage.parse(message.content()).topicPrefix());
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
    void aSignalTopicMayNarrowByKeyRangeButRunsNoSqlText() {
        String data = "\"data-collections\": [\"public.orders\"]";
        SignalMessage ranged = KafkaSignal.of(
                "shop",
                "{\"type\": \"execute-snapshot\", \"data\": {" + data
                        + ", \"key-ranges\": [{\"data-collection\": \"public.orders\", \"from\": [\"100\"]}]}}",
                0,
                1);
        assertEquals(
                SnapshotFilter.range(List.of("100"), null),
                ranged.signal().filters().get("public.orders"));
        String conditioned = "{\"type\": \"execute-snapshot\", \"data\": {" + data
                + ", \"additional-conditions\": [{\"data-collection\": \"public.orders\","
                + " \"filter\": \"id > 100\"}]}}";
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KafkaSignal.of("shop", conditioned, 0, 2))
                .getMessage()
                .contains("only from the signal table"));
        // the same signal emitted on the database by hand is refused by the reader too
        SignalMessage emitted = new SignalMessage(
                "shop",
                "x",
                "execute-snapshot",
                "{" + data
                        + ", \"additional-conditions\": [{\"data-collection\": \"public.orders\", \"filter\": \"id > 100\"}]}");
        assertThrows(IllegalArgumentException.class, emitted::signal);
    }

    @Test
    void aMessageWithoutAConnectorIsNone() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SignalMessage.parse("{\"id\": 1}"))
                .getMessage()
                .contains("names no connector"));
    }
}
