package dev.pglane.source.pgoutput;

import java.util.Locale;

/** The first byte of a pgoutput message, and how error messages name it. */
final class MessageTag {

    private MessageTag() {}

    /** {@code Begin 'B' (0x42)}; a tag pgoutput does not have reads {@code unknown tag 'z' (0x7A)}. */
    static String describe(byte tag) {
        String name = name(tag);
        return (name == null ? "unknown tag " : name + " ") + describeByte(tag);
    }

    /** A byte as its hex value, preceded by its character when printable: {@code 'x' (0x78)}, {@code (0x01)}. */
    static String describeByte(byte value) {
        String hex = String.format(Locale.ROOT, "(0x%02X)", value & 0xFF);
        return value >= 0x20 && value < 0x7F ? "'" + (char) value + "' " + hex : hex;
    }

    /** The protocol documentation's name of a tag, or {@code null} when pgoutput has no such message. */
    static String name(byte tag) {
        return switch (tag) {
            case 'B' -> "Begin";
            case 'C' -> "Commit";
            case 'O' -> "Origin";
            case 'R' -> "Relation";
            case 'Y' -> "Type";
            case 'I' -> "Insert";
            case 'U' -> "Update";
            case 'D' -> "Delete";
            case 'T' -> "Truncate";
            case 'M' -> "Message";
            case 'S' -> "Stream Start";
            case 'E' -> "Stream Stop";
            case 'c' -> "Stream Commit";
            case 'A' -> "Stream Abort";
            case 'b' -> "Begin Prepare";
            case 'P' -> "Prepare";
            case 'K' -> "Commit Prepared";
            case 'r' -> "Rollback Prepared";
            case 'p' -> "Stream Prepare";
            default -> null;
        };
    }
}
