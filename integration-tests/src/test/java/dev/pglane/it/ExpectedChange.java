package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.TruncateInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * A row change as the test's SQL made it, to compare with the record the connector emitted for it. Rows are column
 * → value maps in table order, holding every column (null where the record must carry null).
 */
record ExpectedChange(
        Op op,
        String table,
        Map<String, Object> before,
        Map<String, Object> after,
        List<String> unchangedToast,
        TruncateInfo truncate) {

    static ExpectedChange insert(String table, Map<String, Object> after) {
        return new ExpectedChange(Op.CREATE, table, null, after, List.of(), null);
    }

    /** An update; {@code before} is null when PostgreSQL sends no old row (key unchanged, default identity). */
    static ExpectedChange update(String table, Map<String, Object> before, Map<String, Object> after) {
        return new ExpectedChange(Op.UPDATE, table, before, after, List.of(), null);
    }

    /** An update that left the TOASTed {@code unchanged} columns alone: their fields are null and listed. */
    static ExpectedChange updateKeepingToast(String table, Map<String, Object> after, List<String> unchanged) {
        return new ExpectedChange(Op.UPDATE, table, null, after, unchanged, null);
    }

    static ExpectedChange delete(String table, Map<String, Object> before) {
        return new ExpectedChange(Op.DELETE, table, before, null, List.of(), null);
    }

    static ExpectedChange truncate(String table, boolean cascade, boolean restartIdentity) {
        return new ExpectedChange(
                Op.TRUNCATE, table, null, null, List.of(), new TruncateInfo(cascade, restartIdentity));
    }

    /** A row from alternating column names and values; {@code null} values allowed. */
    static Map<String, Object> row(Object... columnsAndValues) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < columnsAndValues.length; i += 2) {
            row.put((String) columnsAndValues[i], columnsAndValues[i + 1]);
        }
        return row;
    }

    /** Asserts that {@code event} is this change of {@code public.<table>}; {@code where} prefixes the messages. */
    void assertMatches(ChangeEvent event, String where) {
        assertEquals(op, event.op(), where + ": op");
        assertEquals("public", event.source().schema(), where + ": source.schema");
        assertEquals(table, event.source().table(), where + ": source.table");
        assertEquals(before, values(event.before()), where + ": before");
        assertEquals(after, values(event.after()), where + ": after");
        assertEquals(unchangedToast, event.unchangedToast(), where + ": unchanged_toast");
        assertEquals(truncate, event.truncate(), where + ": truncate");
        assertEquals(Map.of(), event.textValues(), where + ": text_values");
    }

    /** A row struct as a column → value map in field order, or null. */
    static Map<String, Object> values(Struct row) {
        if (row == null) {
            return null;
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Field field : row.schema().fields()) {
            values.put(field.name(), row.get(field));
        }
        return values;
    }
}
