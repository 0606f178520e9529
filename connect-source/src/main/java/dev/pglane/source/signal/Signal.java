package dev.pglane.source.signal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A row inserted into the signal table ({@code signal.table}), in Debezium's shape: {@code id}, {@code type} and a
 * JSON {@code data}. The types pglane acts on:
 *
 * <ul>
 *   <li>{@code execute-snapshot}, data {@code {"data-collections": ["schema.table", ...]}}: snapshot these captured
 *       tables again, while the stream goes on, each chunk replacing the rows of its key range on the target.
 *       Optionally only some rows of a table: Debezium's {@code "additional-conditions": [{"data-collection":
 *       "schema.table", "filter": "<condition>"}]}, and pglane's {@code "key-ranges": [{"data-collection":
 *       "schema.table", "from": [<key value>, ...], "to": [...]}]} (see {@link SnapshotFilter});
 *   <li>{@code stop-snapshot}: drop the snapshot under way;
 *   <li>{@code pause-snapshot}, {@code resume-snapshot}: stop reading new chunks, and go on.
 * </ul>
 *
 * @param tables the tables of an {@code execute-snapshot}, else empty
 * @param filters the tables of {@code tables} of which only some rows are to be sent, with their filters
 */
public record Signal(String id, Kind kind, List<String> tables, Map<String, SnapshotFilter> filters) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public enum Kind {
        EXECUTE_SNAPSHOT,
        STOP_SNAPSHOT,
        PAUSE_SNAPSHOT,
        RESUME_SNAPSHOT
    }

    public Signal {
        tables = List.copyOf(tables);
        filters = Collections.unmodifiableMap(new LinkedHashMap<>(filters));
    }

    /** True if a filter of the signal holds a condition. */
    public boolean hasCondition() {
        return filters.values().stream().anyMatch(f -> f.where() != null);
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
            return new Signal(id, kind, List.of(), Map.of());
        }
        JsonNode node;
        try {
            node = data == null ? null : JSON.readTree(data);
        } catch (IOException e) {
            throw new IllegalArgumentException("its data is not JSON: " + e.getMessage());
        }
        List<String> tables = tables(node == null ? null : node.get("data-collections"));
        return new Signal(id, kind, tables, filters(node, tables));
    }

    private static List<String> tables(JsonNode collections) {
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
        return tables;
    }

    private static Map<String, SnapshotFilter> filters(JsonNode data, List<String> tables) {
        Map<String, SnapshotFilter> filters = new LinkedHashMap<>();
        for (JsonNode condition : entries(data, "additional-conditions", tables)) {
            merge(filters, condition, SnapshotFilter.where(text(condition, "filter")));
        }
        for (JsonNode range : entries(data, "key-ranges", tables)) {
            SnapshotFilter filter = SnapshotFilter.range(values(range, "from"), values(range, "to"));
            if (filter.from() == null && filter.to() == null) {
                throw new IllegalArgumentException(
                        "a key range of " + range.get("data-collection").asText()
                                + " needs \"from\" or \"to\", each an array of the key's values");
            }
            merge(filters, range, filter);
        }
        return filters;
    }

    /** The entries of the array {@code field}, each naming one of {@code tables} in its {@code data-collection}. */
    private static List<JsonNode> entries(JsonNode data, String field, List<String> tables) {
        JsonNode array = data.get(field);
        if (array == null || array.isNull()) {
            return List.of();
        }
        if (!array.isArray()) {
            throw new IllegalArgumentException(field + " must be an array");
        }
        List<JsonNode> entries = new ArrayList<>();
        for (JsonNode entry : array) {
            String table = entry.path("data-collection").asText(null);
            if (table == null || !tables.contains(table)) {
                throw new IllegalArgumentException("an entry of " + field + " names data-collection " + table
                        + ", which is not one of data-collections " + tables);
            }
            entries.add(entry);
        }
        return entries;
    }

    private static void merge(Map<String, SnapshotFilter> filters, JsonNode entry, SnapshotFilter filter) {
        String table = entry.get("data-collection").asText();
        SnapshotFilter before = filters.get(table);
        if (before != null
                && ((before.where() != null && filter.where() != null)
                        || ((before.from() != null || before.to() != null)
                                && (filter.from() != null || filter.to() != null)))) {
            throw new IllegalArgumentException("two filters of the same kind for " + table);
        }
        filters.put(table, before == null ? filter : before.and(filter));
    }

    private static String text(JsonNode entry, String field) {
        JsonNode value = entry.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException(
                    "the condition for " + entry.get("data-collection").asText() + " needs a text \"" + field + "\"");
        }
        return value.asText();
    }

    private static List<String> values(JsonNode range, String field) {
        JsonNode array = range.get(field);
        if (array == null || array.isNull()) {
            return null;
        }
        List<String> values = new ArrayList<>();
        for (JsonNode value : array.isArray() ? array : List.<JsonNode>of()) {
            if (value.isNull() || value.isContainerNode()) {
                throw new IllegalArgumentException(field + " of a key range holds " + value + ", not a key value");
            }
            values.add(value.asText());
        }
        if (values.isEmpty()) {
            throw new IllegalArgumentException(field + " of a key range must be a non-empty array of key values");
        }
        return values;
    }
}
