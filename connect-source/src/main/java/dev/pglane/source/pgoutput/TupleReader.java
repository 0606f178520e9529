package dev.pglane.source.pgoutput;

/** Reads a TupleData block: {@code Int16 ncols}, then per column a kind byte and, for t/b, a length and bytes. */
final class TupleReader {

    private TupleReader() {}

    static TupleData read(MessageCursor in, String tuple) {
        int countOffset = in.offset();
        int count = in.length(tuple + ".ncols", in.int16(tuple + ".ncols"), countOffset);
        byte[] kinds = new byte[count];
        int[] offsets = new int[count];
        int[] lengths = new int[count];
        for (int column = 0; column < count; column++) {
            String field = tuple + ".column[" + column + "]";
            int kindOffset = in.offset();
            byte kind = in.int8(field + ".kind");
            kinds[column] = kind;
            switch (kind) {
                case 'n', 'u' -> {
                    // null or unchanged TOAST: no data follows
                }
                case 't', 'b' -> {
                    int lengthOffset = in.offset();
                    lengths[column] = in.length(field + ".length", in.int32(field + ".length"), lengthOffset);
                    offsets[column] = in.skip(field + ".value", lengths[column]);
                }
                default ->
                    throw in.error(
                            field + ".kind",
                            kindOffset,
                            "unknown column kind " + MessageTag.describeByte(kind) + " (expected n, u, t or b)");
            }
        }
        return new TupleData(in.array(), kinds, offsets, lengths);
    }
}
