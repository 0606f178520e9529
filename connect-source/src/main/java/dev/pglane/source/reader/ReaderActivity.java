package dev.pglane.source.reader;

/** Receives what the reader does, for the metrics: busy time and committed transactions. */
public interface ReaderActivity {
    ReaderActivity NONE = new ReaderActivity() {
        @Override
        public void busy(long nanos) {}

        @Override
        public void committed() {}
    };

    /** The reader spent {@code nanos} reading and dispatching since it last reported (not waiting). */
    void busy(long nanos);

    /** A transaction committed (its END, if any, is on its way). */
    void committed();
}
