package dev.pglane.source.values;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.connect.data.Struct;

/**
 * One decoded row image.
 *
 * @param row the row struct of the relation's row schema; a field is null for SQL NULL, for an unchanged TOAST
 *     value and for a value in {@code textValues}
 * @param unchangedToast the columns PostgreSQL did not send because their TOASTed value did not change, in column
 *     order (the envelope's {@code unchanged_toast}); empty if none
 * @param textValues PostgreSQL's text of values the typed fields cannot hold, keyed {@code before.<column>} or
 *     {@code after.<column>} (the envelope's {@code text_values}); empty if none
 */
public record DecodedRow(Struct row, List<String> unchangedToast, Map<String, String> textValues) {

    public DecodedRow {
        Objects.requireNonNull(row, "row");
        unchangedToast = List.copyOf(unchangedToast);
        textValues = Map.copyOf(textValues);
    }
}
