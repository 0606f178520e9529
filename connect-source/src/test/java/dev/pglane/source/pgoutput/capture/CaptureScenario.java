package dev.pglane.source.pgoutput.capture;

import java.util.ArrayList;
import java.util.List;

/**
 * One fixture file: a script, and the {@code streaming} option its replication session is started with.
 *
 * @param name the fixture file's base name
 * @param script the SQL script under {@code pgoutput/capture}
 * @param streaming the value of the pgoutput {@code streaming} option, or {@code null} to leave it off
 */
record CaptureScenario(String name, String script, String streaming) {

    /** The scenarios for a server of {@code majorVersion}: parallel streaming (abort info) exists from 16 on. */
    static List<CaptureScenario> forMajor(int majorVersion) {
        String streaming = majorVersion >= 16 ? "parallel" : "on";
        List<CaptureScenario> scenarios = new ArrayList<>();
        for (String plain :
                List.of("dml", "identity-full", "identity-index", "toast", "truncate", "messages", "types", "origin")) {
            scenarios.add(new CaptureScenario(plain, plain + ".sql", null));
        }
        for (String streamed : List.of("stream-commit", "stream-abort", "stream-interleaved", "stream-origin")) {
            scenarios.add(new CaptureScenario(streamed, streamed + ".sql", streaming));
        }
        if (majorVersion >= 16) {
            // The same abort without parallel streaming: protocol 4, but no abort LSN and time.
            scenarios.add(new CaptureScenario("stream-abort-streaming-on", "stream-abort.sql", "on"));
        }
        return scenarios;
    }

    boolean streamed() {
        return streaming != null;
    }

    /**
     * Rows a streamed script inserts per bulk statement. From 16 on the session streams every change at once
     * (debug_logical_replication_streaming=immediate), so three suffice; before, only a transaction above
     * logical_decoding_work_mem (64kB, its minimum) streams, which takes some hundreds of small rows.
     */
    int bulkRows(int majorVersion) {
        return majorVersion >= 16 ? 3 : 500;
    }

    /** Settings for the walsender session (the libpq {@code options} parameter) that force streaming. */
    String sessionOptions(int majorVersion) {
        if (!streamed()) {
            return null;
        }
        return majorVersion >= 16
                ? "-c debug_logical_replication_streaming=immediate"
                : "-c logical_decoding_work_mem=64kB";
    }
}
