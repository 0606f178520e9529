package dev.pglane.source.pgoutput;

/** Reads a TupleData block: {@code Int16 ncols}, then per column a kind byte and, for t/b, a length and bytes. */
final class TupleReader {

    private TupleReader() {}

    /** Reads one tuple; {@code tuple} ("new tuple", "old tuple") names it in errors. */
    static TupleData read(MessageCursor in, String tuple) {
        in.enterTuple(tuple);
        int count = in.count16("ncols");
        byte[] kinds = new byte[count];
        int[] offsets = new int[count];
        int[] lengths = new int[count];
        for (int column = 0; column < count; column++) {
            in.column(column);
            int kindOffset = in.offset();
            byte kind = in.int8("kind");
            kinds[column] = kind;
            switch (kind) {
                case 'n', 'u' -> {
                    // null or unchanged TOAST: no data follows
                }
                case 't', 'b' -> {
                    lengths[column] = in.count32("length");
                    offsets[column] = in.skip("value", lengths[column]);
                }
                default ->
                    throw in.error(
                            "kind",
                            kindOffset,
                            "unknown column kind " + MessageTag.describeByte(kind) + " (expected n, u, t or b)");
            }
        }
        in.leaveTuple();
        return new TupleData(in.array(), kinds, offsets, lengths);
    }
}
