package dev.pglane.source.pgoutput.capture;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A capture script from {@code src/test/resources/pgoutput/capture}: statements end with {@code ;} at the end
 * of a line, {@code --} lines are comments, {@code ${bulk}} is replaced by a row count, a statement that
 * starts with {@code /*2*}{@code /} runs on a second session, and {@code \await-decoded;} is a directive
 * (see {@link Statement#awaitsDecoding()}).
 */
record ScenarioScript(List<Statement> statements) {

    /** One SQL statement and the session (1 or 2) that runs it. */
    record Statement(int session, String sql) {

        /**
         * {@code \await-decoded;}: not SQL, but "wait until the walsender has decoded all WAL written so far".
         * Placed before a ROLLBACK, it makes the server stream the changes before it sees the abort, as it does
         * when it keeps up: decoding an already aborted transaction stops at its first catalog lookup (a
         * "concurrent abort") and streams nothing.
         */
        boolean awaitsDecoding() {
            return sql.equals(AWAIT_DECODED);
        }
    }

    private static final String AWAIT_DECODED = "\\await-decoded;";

    private static final String SECOND_SESSION = "/*2*/";

    static ScenarioScript load(String name, int bulkRows) {
        String text = resource("/pgoutput/capture/" + name).replace("${bulk}", Integer.toString(bulkRows));
        List<Statement> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("--")) {
                continue;
            }
            current.append(current.length() == 0 ? "" : "\n").append(line);
            if (line.endsWith(";")) {
                statements.add(statement(current.toString()));
                current.setLength(0);
            }
        }
        if (current.length() > 0) {
            throw new IllegalArgumentException(name + " ends with a statement lacking its ';': " + current);
        }
        return new ScenarioScript(statements);
    }

    private static Statement statement(String sql) {
        return sql.startsWith(SECOND_SESSION)
                ? new Statement(2, sql.substring(SECOND_SESSION.length()).strip())
                : new Statement(1, sql);
    }

    private static String resource(String path) {
        try (InputStream in = ScenarioScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("no capture script " + path + " on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
