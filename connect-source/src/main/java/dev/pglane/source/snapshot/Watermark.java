package dev.pglane.source.snapshot;

/**
 * A chunk's low or high watermark: a logical decoding message with prefix {@value #PREFIX} and content
 * {@code <topic prefix>/<generation>/<serial>/<L|H>}. The low one is written non-transactionally, so the stream
 * delivers it at its WAL position; the high one in a transaction of its own, whose xid and LSNs the chunk's
 * transaction takes. Every connector on the database sees every watermark; each acts only on its own.
 *
 * @param generation the source run that wrote it
 * @param serial the chunk read it belongs to, unique within the run
 */
public record Watermark(String topicPrefix, long generation, long serial, boolean high) {
    public static final String PREFIX = "pglane.snapshot";

    public String content() {
        return topicPrefix + "/" + generation + "/" + serial + "/" + (high ? "H" : "L");
    }

    /** The watermark a message carries, or {@code null} if its content is not one (a message of another tool). */
    public static Watermark parse(String content) {
        int last = content.lastIndexOf('/');
        int serialAt = last < 0 ? -1 : content.lastIndexOf('/', last - 1);
        int generationAt = serialAt < 0 ? -1 : content.lastIndexOf('/', serialAt - 1);
        if (generationAt < 0) {
            return null;
        }
        String kind = content.substring(last + 1);
        if (!kind.equals("L") && !kind.equals("H")) {
            return null;
        }
        try {
            return new Watermark(
                    content.substring(0, generationAt),
                    Long.parseLong(content.substring(generationAt + 1, serialAt)),
                    Long.parseLong(content.substring(serialAt + 1, last)),
                    kind.equals("H"));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
