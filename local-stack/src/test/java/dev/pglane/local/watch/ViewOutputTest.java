package dev.pglane.local.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.wire.Lsn;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ViewOutputTest {
    private static final PipelineReading READING =
            new PipelineReading(Lsn.parse("0/10"), Lsn.parse("0/8"), 0, 1, 2, 3, 4, 0, 2, 0);
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void liveRedrawsOverItsLastFrameAndKeepsMessagesAboveIt() {
        ViewOutput live = ViewOutput.of(out, true, 5);
        live.show("first", Optional.empty());
        live.show("second", Optional.of(READING));
        live.message("a step");
        live.finish();
        live.message("after the view");

        String waiting = String.join("\n", PipelineView.waiting("first")) + "\n";
        String frame = String.join("\n", PipelineView.frame("second", READING)) + "\n";
        assertEquals(
                waiting
                        + "\033[2F\033[J" + frame // up over the two waiting lines, erase, draw
                        + "\033[5F\033[J" + "a step\n" + frame // the message goes above the frame
                        + "after the view\n", // finished: the last frame stays, nothing is erased
                output());
    }

    @Test
    void plainWritesOneLinePerNFramesAndTheWaitOnce() {
        ViewOutput plain = ViewOutput.of(out, false, 3);
        plain.show("s", Optional.empty());
        plain.show("s", Optional.empty());
        for (int i = 0; i < 4; i++) {
            plain.show("s" + i, Optional.of(READING));
        }
        plain.message("done");

        assertEquals(
                "s | " + PipelineView.WAITING + "\n"
                        + PipelineView.line("s0", READING) + "\n"
                        + PipelineView.line("s3", READING) + "\n"
                        + "done\n",
                output());
    }

    private String output() {
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
