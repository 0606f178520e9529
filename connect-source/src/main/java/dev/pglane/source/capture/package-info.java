/**
 * Which tables the connector captures, and the tables that join the publication later: the set the offsets carry
 * ({@link dev.pglane.source.capture.CapturedTables}), the watch that compares it with the publication
 * ({@link dev.pglane.source.capture.NewTableWatch}) and announces a change through the WAL
 * ({@link dev.pglane.source.capture.TablesMessage}), and the reader's side that takes it at one point of the stream
 * ({@link dev.pglane.source.capture.TableCapture}), where the joined tables' snapshot starts.
 */
package dev.pglane.source.capture;
