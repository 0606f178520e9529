package dev.pglane.source.snapshot;

import dev.pglane.source.pgoutput.TupleData;

/**
 * One line of {@code COPY ... TO STDOUT} text format turned into the tuple pgoutput would have sent for the row:
 * each column's output-function text, or null. Decoding then goes through the same row decoders as the stream, so a
 * snapshot row and a streamed row of the same value are the same record.
 *
 * <p>COPY TO escapes backslash, the delimiter (tab), newline, carriage return, backspace, form feed and vertical tab,
 * and writes {@code \N} for null; it never writes octal or hex escapes. The row is unescaped into one array.
 */
final class CopyTextRow {
    private CopyTextRow() {}

    /**
     * @param line one data row as pgjdbc's {@code CopyOut.readFromCopy()} returns it, with its trailing newline
     * @param columns the number of columns the COPY query selects
     * @throws IllegalArgumentException if the line does not have {@code columns} fields or has an unknown escape
     */
    static TupleData parse(byte[] line, int columns) {
        int end = line.length;
        if (end > 0 && line[end - 1] == '\n') {
            end--;
        }
        byte[] data = new byte[end];
        byte[] kinds = new byte[columns];
        int[] offsets = new int[columns];
        int[] lengths = new int[columns];
        int column = 0;
        int out = 0;
        int fieldStart = 0;
        int i = 0;
        while (true) {
            if (column >= columns) {
                throw new IllegalArgumentException("a COPY row has more than the " + columns + " columns selected");
            }
            if (end - i >= 2 && line[i] == '\\' && line[i + 1] == 'N' && (i + 2 == end || line[i + 2] == '\t')) {
                kinds[column] = 'n';
                i += 2;
            } else {
                kinds[column] = 't';
                fieldStart = out;
                while (i < end && line[i] != '\t') {
                    byte b = line[i++];
                    if (b == '\\') {
                        if (i == end) {
                            throw new IllegalArgumentException("a COPY row ends inside an escape");
                        }
                        b = unescape(line[i++]);
                    }
                    data[out++] = b;
                }
                offsets[column] = fieldStart;
                lengths[column] = out - fieldStart;
            }
            column++;
            if (i == end) {
                break;
            }
            i++; // the tab
        }
        if (column != columns) {
            throw new IllegalArgumentException(
                    "a COPY row has " + column + " columns, not the " + columns + " selected");
        }
        return TupleData.ofText(data, kinds, offsets, lengths);
    }

    private static byte unescape(byte escaped) {
        return switch (escaped) {
            case '\\' -> '\\';
            case 't' -> '\t';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'v' -> 0x0B;
            default -> throw new IllegalArgumentException("COPY wrote an unknown escape \\" + (char) escaped);
        };
    }
}
