package dev.pglane.source.signal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A row inserted into the signal table ({@code signal.table}), in Debezium's shape: {@code id}, {@code type} and a
 * JSON {@code data}. The types pglane acts on:
 *
 * <ul>
 *   <li>{@code execute-snapshot}, data {@code {"data-collections": ["schema.table", ...]}}: snapshot these captured
 *       tables again, while the stream goes on, each chunk replacing the rows of its key range on the target;
 *   <li>{@code stop-snapshot}: drop the snapshot under way;
 *   <li>{@code pause-snapshot}, {@code resume-snapshot}: stop reading new chunks, and go on.
 * </ul>
 *
 * @param tables the tables of an {@code execute-snapshot}, else empty
 */
public record Signal(String id, Kind kind, List<String> tables) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public enum Kind {
        EXECUTE_SNAPSHOT,
        STOP_SNAPSHOT,
        PAUSE_SNAPSHOT,
        RESUME_SNAPSHOT
    }

    public Signal {
        tables = List.copyOf(tables);
    }

    /** @throws IllegalArgumentException naming the problem if the row is not a signal pglane knows */
    public static Signal parse(String id, String type, String data) {
        Kind kind;
        try {
            kind = Kind.valueOf(String.valueOf(type).toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown signal type '" + type + "' (known: execute-snapshot,"
                    + " stop-snapshot, pause-snapshot, resume-snapshot)");
        }
        if (kind != Kind.EXECUTE_SNAPSHOT) {
            return new Signal(id, kind, List.of());
        }
        JsonNode collections;
        try {
            collections = data == null ? null : JSON.readTree(data).get("data-collections");
        } catch (IOException e) {
            throw new IllegalArgumentException("its data is not JSON: " + e.getMessage());
        }
        if (collections == null || !collections.isArray() || collections.isEmpty()) {
            throw new IllegalArgumentException(
                    "execute-snapshot needs data {\"data-collections\": [\"schema.table\", ...]}");
        }
        List<String> tables = new ArrayList<>();
        for (JsonNode table : collections) {
            if (!table.isTextual()) {
                throw new IllegalArgumentException("data-collections holds " + table + ", not a schema.table name");
            }
            tables.add(table.asText());
        }
        return new Signal(id, kind, tables);
    }
}
