package dev.pglane.source.pgoutput;

import dev.pglane.wire.Lsn;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * One captured fixture, {@code src/test/resources/pgoutput/<server>/<scenario>.hex}, parsed the way the
 * replication reader will parse it: line by line, inside a stream between Stream Start and Stream Stop. See
 * {@code capture.PgOutputFixtureCapture} for how the files were made.
 */
final class PgOutputFixture {

    /** The server directories holding fixtures: PostgreSQL 14 (protocol 2), 17 and 18 (protocol 4). */
    static final List<String> SERVERS = List.of("pg14-v2", "pg17-v4", "pg18-v4");

    /** For {@code @MethodSource}: runs a test once per server directory. */
    static final String SERVERS_SOURCE = "dev.pglane.source.pgoutput.PgOutputFixture#servers";

    /** Every scenario captured on every server. */
    static final List<String> SCENARIOS = List.of(
            "dml",
            "identity-full",
            "identity-index",
            "toast",
            "truncate",
            "messages",
            "types",
            "origin",
            "stream-commit",
            "stream-abort",
            "stream-interleaved",
            "stream-origin");

    /** One payload line: the XLogData dataStart pgjdbc reported, and the pgoutput message bytes. */
    record Line(Lsn lsn, byte[] bytes) {}

    private final String name;
    private final Map<String, String> header;
    private final List<Line> lines;
    private final List<PgOutputMessage> messages;

    private PgOutputFixture(String name, Map<String, String> header, List<Line> lines) {
        this.name = name;
        this.header = header;
        this.lines = lines;
        this.messages = parse();
    }

    static List<String> servers() {
        return SERVERS;
    }

    static PgOutputFixture load(String server, String scenario) {
        String name = "/pgoutput/" + server + "/" + scenario + ".hex";
        Map<String, String> header = new HashMap<>();
        List<Line> lines = new ArrayList<>();
        for (String line : read(name).split("\n")) {
            if (line.startsWith("# ")) {
                int colon = line.indexOf(": ");
                header.put(line.substring(2, colon), line.substring(colon + 2));
            } else if (!line.isBlank()) {
                int space = line.indexOf(' ');
                lines.add(new Line(
                        Lsn.parse(line.substring(0, space)), HexFormat.of().parseHex(line.substring(space + 1))));
            }
        }
        return new PgOutputFixture(name, header, lines);
    }

    ProtocolVersion protocol() {
        return ProtocolVersion.valueOf("V" + header.get("proto_version"));
    }

    /** The pgoutput {@code streaming} option of the capture session: off, on or parallel. */
    String streaming() {
        return header.get("streaming");
    }

    /** Unix microseconds just before the scenario's SQL ran. */
    long capturedFromMicros() {
        return Long.parseLong(header.get("captured_from_micros"));
    }

    /** Unix microseconds after the last message arrived. */
    long capturedToMicros() {
        return Long.parseLong(header.get("captured_to_micros"));
    }

    List<Line> lines() {
        return lines;
    }

    /**
     * Every line parsed once, in order. Tests locate messages with {@code indexOf}, which for row changes relies
     * on identity ({@link TupleData} has no value equality), so the list is parsed once and kept.
     */
    List<PgOutputMessage> messages() {
        return messages;
    }

    /** Parses line by line, tracking whether a line lies inside a streamed chunk. */
    private List<PgOutputMessage> parse() {
        PgOutputParser parser = new PgOutputParser(protocol());
        List<PgOutputMessage> parsed = new ArrayList<>();
        boolean insideStream = false;
        for (Line line : lines) {
            PgOutputMessage message = parser.parse(ByteBuffer.wrap(line.bytes()), insideStream);
            if (message instanceof StreamStartMessage) {
                insideStream = true;
            } else if (message instanceof StreamStopMessage) {
                insideStream = false;
            }
            parsed.add(message);
        }
        return List.copyOf(parsed);
    }

    /** The messages of one type, in order. */
    <T extends PgOutputMessage> List<T> all(Class<T> type) {
        return messages.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The one message of a type. */
    <T extends PgOutputMessage> T only(Class<T> type) {
        List<T> found = all(type);
        if (found.size() != 1) {
            throw new AssertionError(name + " has " + found.size() + " " + type.getSimpleName() + "s, expected 1");
        }
        return found.get(0);
    }

    /** The relation message describing {@code table} (the first one, when it was sent again). */
    RelationMessage relation(String table) {
        return all(RelationMessage.class).stream()
                .filter(relation -> relation.relationName().equals(table))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " has no Relation message for " + table));
    }

    @Override
    public String toString() {
        return name;
    }

    private static String read(String resource) {
        try (InputStream in = PgOutputFixture.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
