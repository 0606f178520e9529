package dev.pglane.source.signal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SignalTest {

    @Test
    void debeziumsExecuteSnapshotNamesItsTables() {
        Signal signal = Signal.parse(
                "ad-hoc-1",
                "execute-snapshot",
                "{\"data-collections\": [\"public.a\", \"s.b\"], \"type\": \"incremental\"}");
        assertEquals(Signal.Kind.EXECUTE_SNAPSHOT, signal.kind());
        assertEquals(List.of("public.a", "s.b"), signal.tables());
        assertEquals(
                Signal.Kind.PAUSE_SNAPSHOT,
                Signal.parse("2", "pause-snapshot", null).kind());
    }

    @Test
    void whatIsNotASignalSaysWhy() {
        assertTrue(message("1", "explode", null).startsWith("unknown signal type 'explode'"));
        assertTrue(message("1", "execute-snapshot", "{not json").startsWith("its data is not JSON"));
        assertTrue(message("1", "execute-snapshot", "{}").contains("data-collections"));
        assertTrue(
                message("1", "execute-snapshot", "{\"data-collections\": [1]}").contains("not a schema.table"));
    }

    private static String message(String id, String type, String data) {
        return assertThrows(IllegalArgumentException.class, () -> Signal.parse(id, type, data))
                .getMessage();
    }
}
