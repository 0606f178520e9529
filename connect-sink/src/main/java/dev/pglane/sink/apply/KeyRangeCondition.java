package dev.pglane.sink.apply;

import static dev.pglane.sink.target.Identifiers.quote;

import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.TargetColumn;
import dev.pglane.sink.target.TargetTable;
import dev.pglane.wire.marker.SnapshotChunk;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * "A target row lies in a snapshot chunk's key range" as SQL: {@code (a, b) >= (?::t, ?::u) AND (a, b) < (...)},
 * with the bounds bound as text and cast to the target columns' types. Only quoted identifiers and the server's
 * own type names go into the text. A range of a table without a key, or without bounds, holds every row.
 */
final class KeyRangeCondition {
    /** The target's columns of the range's key, in key order. */
    final List<TargetColumn> key;

    private final List<String> clauses = new ArrayList<>();
    private final List<String> parameters = new ArrayList<>();

    /** @throws ConnectException naming the column if the target table lacks a column of the range's key */
    KeyRangeCondition(TableName table, TargetTable target, SnapshotChunk.KeyRange range) {
        List<TargetColumn> columns = new ArrayList<>();
        for (String name : range.columns()) {
            columns.add(target.column(name)
                    .orElseThrow(() -> new ConnectException("Cannot bound the snapshot chunk's key range on " + table
                            + ": the target table has no column " + name + " of the source's key")));
        }
        this.key = List.copyOf(columns);
        if (!key.isEmpty()) {
            if (range.lower() != null) {
                clauses.add("(" + columnList() + ") >= " + bound());
                parameters.addAll(range.lower());
            }
            if (range.upper() != null) {
                clauses.add("(" + columnList() + ") < " + bound());
                parameters.addAll(range.upper());
            }
        }
    }

    /** {@code " WHERE <range> AND <extra>"}, or just the range's or the extra's, or {@code ""} for neither. */
    String where(String extra) {
        StringJoiner where = new StringJoiner(" AND ", " WHERE ", "").setEmptyValue("");
        clauses.forEach(where::add);
        if (extra != null) {
            where.add(extra);
        }
        return where.toString();
    }

    /**
     * Binds the bounds from parameter 1 on.
     *
     * @return the next parameter index
     */
    int bind(PreparedStatement statement) throws SQLException {
        int index = 1;
        for (String value : parameters) {
            statement.setString(index++, value);
        }
        return index;
    }

    /** {@code "a", "b"}: the key's columns, quoted. */
    String columnList() {
        StringJoiner names = new StringJoiner(", ");
        key.forEach(c -> names.add(quote(c.name())));
        return names.toString();
    }

    /** {@code (?::integer, ?::text)}: a bound of the key, its values bound as text. */
    private String bound() {
        StringJoiner values = new StringJoiner(", ", "(", ")");
        key.forEach(c -> values.add("?::" + c.type()));
        return values.toString();
    }
}
