package dev.pglane.local.verify;

import java.sql.SQLException;

/** Rows of one side of a table, in key order, read one at a time. */
@FunctionalInterface
interface RowCursor {
    /** The next row, or null after the last. */
    KeyedRow next() throws SQLException;
}
