package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.SourceTransaction;
import java.util.ArrayList;
import java.util.List;

/** Remembers what the scheduler reported. */
final class RecordingListener implements ApplyListener {
    private final List<Long> committedSequences = new ArrayList<>();
    private final List<Long> committedXids = new ArrayList<>();
    private final List<String> retries = new ArrayList<>();
    private final List<Long> startedAhead = new ArrayList<>();
    private final List<String> ranAhead = new ArrayList<>();
    private final List<Long> victims = new ArrayList<>();
    private final Runnable onSample;
    private int samples;
    private int lastOnDependencies;

    RecordingListener() {
        this(() -> {});
    }

    /** @param onSample runs after each {@link #waiting} sample, e.g. to wake a test waiting for one */
    RecordingListener(Runnable onSample) {
        this.onSample = onSample;
    }

    @Override
    public synchronized void committed(SourceTransaction tx, long sequence, long rows) {
        committedSequences.add(sequence);
        committedXids.add(tx.xid());
    }

    @Override
    public void waiting(int onDependencies, int onTurn, int busyWorkers) {
        synchronized (this) {
            samples++;
            lastOnDependencies = onDependencies;
        }
        onSample.run();
    }

    @Override
    public synchronized void startedAhead(SourceTransaction tx) {
        startedAhead.add(tx.xid());
    }

    @Override
    public synchronized void ranAhead(SourceTransaction tx, String reason) {
        ranAhead.add(tx.xid() + ": " + reason);
    }

    @Override
    public synchronized void retried(SourceTransaction tx, String reason) {
        retries.add(tx.xid() + ": " + reason);
    }

    @Override
    public synchronized void deadlockResolved(SourceTransaction victim) {
        victims.add(victim.xid());
    }

    synchronized List<Long> committedSequences() {
        return List.copyOf(committedSequences);
    }

    synchronized List<Long> committedXids() {
        return List.copyOf(committedXids);
    }

    /** {@code "<xid>: <reason>"} for each retry. */
    /** The xids of the attempts that started before their dependency committed. */
    synchronized List<Long> startedAhead() {
        return List.copyOf(startedAhead);
    }

    /** The attempts that started ahead, found their predecessor's rows uncommitted, and were rolled back. */
    synchronized List<String> ranAhead() {
        return List.copyOf(ranAhead);
    }

    synchronized List<String> retries() {
        return List.copyOf(retries);
    }

    synchronized List<Long> victims() {
        return List.copyOf(victims);
    }

    synchronized int samples() {
        return samples;
    }

    /** Workers waiting for a dependency at the last sample. */
    synchronized int lastOnDependencies() {
        return lastOnDependencies;
    }
}
