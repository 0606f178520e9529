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

    @Test
    void anExecuteSnapshotMayFilterItsTablesByConditionAndKeyRange() {
        Signal signal = Signal.parse(
                "3",
                "execute-snapshot",
                "{\"data-collections\": [\"public.a\", \"public.b\"],"
                        + " \"additional-conditions\": [{\"data-collection\": \"public.a\", \"filter\": \"region = 'eu'\"}],"
                        + " \"key-ranges\": [{\"data-collection\": \"public.a\", \"from\": [10], \"to\": [\"20\"]},"
                        + " {\"data-collection\": \"public.b\", \"to\": [\"x\", \"5\"]}]}");
        assertEquals(
                new SnapshotFilter(List.of("10"), List.of("20"), RowCondition.parse("region = 'eu'")),
                signal.filters().get("public.a"));
        assertEquals(
                SnapshotFilter.range(null, List.of("x", "5")), signal.filters().get("public.b"));
        assertTrue(signal.hasCondition());
    }

    @Test
    void aFilterThatCannotBeSentSaysWhy() {
        String tables = "\"data-collections\": [\"public.a\"]";
        assertTrue(message(
                        "1",
                        "execute-snapshot",
                        "{" + tables
                                + ", \"additional-conditions\": [{\"data-collection\": \"public.z\", \"filter\": \"true\"}]}")
                .contains("not one of data-collections"));
        assertTrue(message(
                        "1",
                        "execute-snapshot",
                        "{" + tables
                                + ", \"additional-conditions\": [{\"data-collection\": \"public.a\","
                                + " \"filter\": \"true) TO STDOUT; DROP TABLE a; --\"}]}")
                .contains("holds a character the grammar does not use at character 16"));
        assertTrue(message(
                        "1",
                        "execute-snapshot",
                        "{" + tables + ", \"key-ranges\": [{\"data-collection\": \"public.a\"}]}")
                .contains("needs \"from\" or \"to\""));
        assertTrue(message(
                        "1",
                        "execute-snapshot",
                        "{" + tables + ", \"key-ranges\": [{\"data-collection\": \"public.a\", \"from\": [null]}]}")
                .contains("not a key value"));
        assertTrue(message(
                        "1",
                        "execute-snapshot",
                        "{" + tables
                                + ", \"key-ranges\": [{\"data-collection\": \"public.a\", \"from\": [1]},"
                                + " {\"data-collection\": \"public.a\", \"to\": [2]}]}")
                .contains("two filters of the same kind"));
    }

    private static String message(String id, String type, String data) {
        return assertThrows(IllegalArgumentException.class, () -> Signal.parse(id, type, data))
                .getMessage();
    }
}
