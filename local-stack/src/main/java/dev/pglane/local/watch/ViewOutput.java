package dev.pglane.local.watch;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;

/**
 * Where a {@link Watcher} shows the pipeline, and where the program's own messages go so that they do not tear the
 * view: on a terminal the view redraws in place below the messages; elsewhere (a pipe, a CI log) it is a line now
 * and then.
 */
public abstract class ViewOutput {
    protected final PrintStream out;

    ViewOutput(PrintStream out) {
        this.out = out;
    }

    /** A redrawing view for a terminal, or plain lines (one per {@code plainEvery} frames) for anything else. */
    public static ViewOutput of(PrintStream out, boolean terminal, int plainEvery) {
        return terminal ? new Live(out) : new Plain(out, plainEvery);
    }

    /** A message that stays, above the view. */
    public abstract void message(String line);

    /** The pipeline now, or empty while its metrics are not there yet. */
    abstract void show(String status, Optional<PipelineReading> reading);

    /** Leaves the last frame on the screen and puts what follows below it. */
    public abstract void finish();

    /** Redraws in place with ANSI cursor movement: up to the frame's first line, erase below, draw. */
    private static final class Live extends ViewOutput {
        private static final String ERASE_BELOW = "\033[J";
        private List<String> frame = List.of();
        private int drawn;

        Live(PrintStream out) {
            super(out);
        }

        @Override
        public synchronized void message(String line) {
            erase();
            out.println(line);
            draw();
        }

        @Override
        synchronized void show(String status, Optional<PipelineReading> reading) {
            frame = reading.map(r -> PipelineView.frame(status, r)).orElseGet(() -> PipelineView.waiting(status));
            erase();
            draw();
        }

        @Override
        public synchronized void finish() {
            frame = List.of();
            drawn = 0;
        }

        private void erase() {
            if (drawn > 0) {
                out.print("\033[" + drawn + "F" + ERASE_BELOW);
                drawn = 0;
            }
        }

        private void draw() {
            frame.forEach(out::println);
            drawn = frame.size();
            out.flush();
        }
    }

    /** Every {@code every}-th frame as one line; the waiting state once. */
    private static final class Plain extends ViewOutput {
        private final int every;
        private long frames;
        private boolean waitingShown;

        Plain(PrintStream out, int every) {
            super(out);
            this.every = every;
        }

        @Override
        public synchronized void message(String line) {
            out.println(line);
        }

        @Override
        synchronized void show(String status, Optional<PipelineReading> reading) {
            if (reading.isEmpty()) {
                if (!waitingShown) {
                    waitingShown = true;
                    out.println(status + " | " + PipelineView.WAITING);
                }
                return;
            }
            if (frames++ % every == 0) {
                out.println(PipelineView.line(status, reading.get()));
            }
        }

        @Override
        public void finish() {
            out.flush();
        }
    }
}
