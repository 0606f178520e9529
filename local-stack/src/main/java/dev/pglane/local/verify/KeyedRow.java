package dev.pglane.local.verify;

import java.util.List;

/**
 * One row as text, with the text of its ordering key: the primary key columns, or the whole row when the table has
 * no primary key.
 */
record KeyedRow(List<String> key, String row) {}
