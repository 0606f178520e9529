package dev.pglane.sink.apply;

import static dev.pglane.sink.target.Identifiers.qualified;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.TargetColumn;
import dev.pglane.sink.target.TargetTable;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.marker.SnapshotChunk;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Deletes the rows of a snapshot chunk's key range that the chunk does not hold. At the chunk's point of the stream
 * the source's range holds exactly the chunk's rows, so a target row in it with another key is one the source no
 * longer has (deleted while the pipeline did not carry it, or written on the target by hand): the chunk repairs the
 * drift. Into an empty target it deletes nothing, at the cost of one index range scan. The bounds and keys are bound
 * as text and cast to the target columns' types; only quoted identifiers and those server-formatted type names go
 * into the text.
 */
final class StrayRows {
    private StrayRows() {}

    /**
     * @param rows the chunk's records, in the transaction
     * @return the rows deleted
     * @throws ConnectException naming the column if the target table lacks a column of the range's key
     */
    static int delete(
            Connection connection,
            TableName table,
            TargetTable target,
            SnapshotChunk.KeyRange range,
            Iterable<ChangeRecord> rows)
            throws SQLException {
        KeyRangeCondition inRange = new KeyRangeCondition(table, target, range);
        String notInChunk = inRange.key.isEmpty()
                ? null
                : "(" + inRange.columnList() + ") NOT IN (SELECT * FROM ROWS FROM (" + arrays(inRange.key) + "))";
        try (PreparedStatement st =
                connection.prepareStatement("DELETE FROM " + qualified(table) + inRange.where(notInChunk))) {
            int index = inRange.bind(st);
            for (TargetColumn column : inRange.key) {
                st.setArray(
                        index++,
                        connection.createArrayOf(
                                "text", keyTexts(rows, column.name()).toArray()));
            }
            return st.executeUpdate();
        }
    }

    /** {@code pg_catalog.unnest(?::integer[]), pg_catalog.unnest(?::text[])}: the chunk's keys, column by column. */
    private static String arrays(List<TargetColumn> key) {
        StringJoiner arrays = new StringJoiner(", ");
        key.forEach(c -> arrays.add("pg_catalog.unnest(?::" + c.type() + "[])"));
        return arrays.toString();
    }

    private static List<String> keyTexts(Iterable<ChangeRecord> rows, String column) {
        List<String> texts = new ArrayList<>();
        for (ChangeRecord record : rows) {
            if (record.event().op() != Op.READ) {
                continue;
            }
            Field field = record.event().after().schema().field(column);
            if (field == null) {
                throw new ConnectException("The snapshot record " + record.position() + " lacks the key column "
                        + column + " its chunk's range names");
            }
            texts.add(RowValues.text(field, record.event(), RowImage.AFTER));
        }
        return texts;
    }
}
