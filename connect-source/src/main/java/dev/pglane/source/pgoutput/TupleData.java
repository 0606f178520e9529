package dev.pglane.source.pgoutput;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One tuple, kept raw: the parser only records each column's kind and byte range in the message (no copy, no
 * text decoding), so the replication reader stays cheap and decoder lanes do the decoding in parallel.
 *
 * <p>Immutable once built. It refers to the array the message arrived in; pgjdbc allocates a fresh array for
 * every message, so the ranges stay valid for as long as the tuple is referenced.
 */
public final class TupleData {

    private final byte[] message;
    private final byte[] kinds;
    private final int[] offsets;
    private final int[] lengths;

    /** Package-private: built by {@link TupleReader} over ranges it has checked against the message. */
    TupleData(byte[] message, byte[] kinds, int[] offsets, int[] lengths) {
        this.message = message;
        this.kinds = kinds;
        this.offsets = offsets;
        this.lengths = lengths;
    }

    /**
     * A tuple of text and null columns built outside the stream (a snapshot row read with COPY), in the form pgoutput
     * sends: {@code lengths[i]} bytes of UTF-8 text at {@code offsets[i]} of {@code data}, or a null where
     * {@code kinds[i]} is {@code 'n'}.
     *
     * @throws IllegalArgumentException if a kind is not {@code 't'} or {@code 'n'} or a range leaves {@code data}
     */
    public static TupleData ofText(byte[] data, byte[] kinds, int[] offsets, int[] lengths) {
        if (offsets.length != kinds.length || lengths.length != kinds.length) {
            throw new IllegalArgumentException("kinds, offsets and lengths must have one entry per column");
        }
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i] == 'n') {
                continue;
            }
            if (kinds[i] != 't' || offsets[i] < 0 || lengths[i] < 0 || offsets[i] > data.length - lengths[i]) {
                throw new IllegalArgumentException("column " + i + " is not a text range of the tuple's bytes");
            }
        }
        return new TupleData(data, kinds.clone(), offsets.clone(), lengths.clone());
    }

    /** The number of columns sent (the published columns of the relation). */
    public int size() {
        return kinds.length;
    }

    /** {@code 'n'} null, {@code 'u'} unchanged TOAST value, {@code 't'} text, {@code 'b'} binary. */
    public char kind(int column) {
        return (char) kinds[checkIndex(column)];
    }

    /**
     * The UTF-8 text of a {@code 't'} column, decoded on each call.
     *
     * @throws IllegalStateException if the column is not of kind {@code 't'}
     */
    public String text(int column) {
        if (kind(column) != 't') {
            throw new IllegalStateException(
                    "column " + column + " is of kind '" + kind(column) + "', not text ('t'): it has no text");
        }
        return new String(message, offsets[column], lengths[column], StandardCharsets.UTF_8);
    }

    /**
     * A copy of a {@code 't'} or {@code 'b'} column's bytes.
     *
     * @throws IllegalStateException if the column is null ({@code 'n'}) or unchanged TOAST ({@code 'u'})
     */
    public byte[] bytes(int column) {
        char kind = kind(column);
        if (kind != 't' && kind != 'b') {
            throw new IllegalStateException("column " + column + " is of kind '" + kind + "': it carries no bytes");
        }
        return Arrays.copyOfRange(message, offsets[column], offsets[column] + lengths[column]);
    }

    /** Kinds and sizes only: values may be large or sensitive, so they stay out of logs. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("TupleData[");
        for (int i = 0; i < kinds.length; i++) {
            text.append(i == 0 ? "" : ", ").append((char) kinds[i]);
            if (kinds[i] == 't' || kinds[i] == 'b') {
                text.append('(').append(lengths[i]).append(')');
            }
        }
        return text.append(']').toString();
    }

    private int checkIndex(int column) {
        if (column < 0 || column >= kinds.length) {
            throw new IndexOutOfBoundsException("column " + column + " of a tuple with " + kinds.length + " columns");
        }
        return column;
    }
}
