package dev.pglane.local.bench;

import dev.pglane.local.bench.ceiling.StageCost;
import dev.pglane.local.bench.ceiling.StageCost.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The stages of pglane's two pipelines, read from a run's CPU by thread group ({@link ThreadCpu}) and its servers'
 * CPU, as CPU µs per source transaction. The connector's threads are named {@code pglane-<connector>-<role>} and
 * Connect's {@code task-thread-<connector>-<task>}; in a benchmark run only one connector runs in the JVM, so a
 * group is one connector's.
 *
 * <p>Source: the replication reader thread ({@code -reader}: reads the stream, cuts batches, hands them to the lanes)
 * and the task thread (the ordered emitter in {@code poll()}, the converter, {@code producer.send}) are serial, and so
 * is the task's one producer I/O thread; the decoder lanes ({@code -lane-<i>}) are parallel; the source server's CPU,
 * almost all of it the slot's one walsender, is a serial database stage.
 *
 * <p>Sink: the task thread ({@code put()}: the consumer's fetches, the converter, assembling transactions, their
 * write sets and dependencies, submitting them) is serial; the decode lanes ({@code -decode-<i>}) and the apply
 * workers ({@code -worker-<i>}) are parallel; the target server's CPU is its apply sessions', a parallel database
 * stage. The commit sequencer has no thread of its own: each worker waits for its turn and commits on its own
 * session, so the in-order commits' CPU is inside the workers' ({@link #COMMIT_SEQUENCER}).
 */
final class PipelineStages {
    static final String SOURCE_READER = "source reader thread (replication stream)";
    static final String SOURCE_TASK = "source task thread (ordered emitter, converter, send)";
    static final String PRODUCER = "producer I/O thread";
    static final String DECODER_LANES = "decoder lanes";
    static final String SOURCE_PG = "source PostgreSQL (its walsender, mostly)";
    static final String SINK_TASK = "sink task thread (put: fetch, converter, assemble, schedule)";
    static final String DECODE_LANES = "decode lanes";
    static final String APPLY_WORKERS = "apply workers (statements, in-order commits)";
    static final String TARGET_PG = "target PostgreSQL (apply backends)";
    static final String JVM_BESIDE = "JVM beside its threads: GC, JIT (the broker's too), ended threads";

    /** Why the sink's commit sequencer has no figure of its own. */
    static final String COMMIT_SEQUENCER = "The sink's commit sequencer has no thread of its own: each apply worker"
            + " waits in the commit sequence for its turn and commits on its own session, so its CPU is inside the"
            + " apply workers' and thread CPU cannot tell it apart; with 1 worker, that worker is itself serial.";

    private PipelineStages() {}

    /**
     * The source pipeline's stages; groups that used no CPU in the run are left out.
     *
     * @param jvmSeconds the whole JVM's CPU: what its threads' groups leave of it is GC, JIT and ended threads
     */
    static List<StageCost> source(
            Map<String, Double> cpuByGroup, double jvmSeconds, double sourcePgSeconds, long transactions) {
        List<StageCost> stages = new ArrayList<>();
        add(stages, cpuByGroup, ThreadCpu.pglane("reader"), SOURCE_READER, Kind.SERIAL, transactions);
        add(stages, cpuByGroup, ThreadCpu.TASK_THREAD, SOURCE_TASK, Kind.SERIAL, transactions);
        add(stages, cpuByGroup, ThreadCpu.PRODUCER_NETWORK, PRODUCER, Kind.SERIAL, transactions);
        add(stages, cpuByGroup, ThreadCpu.pglane("lane"), DECODER_LANES, Kind.PARALLEL, transactions);
        stages.add(StageCost.of(SOURCE_PG, Kind.DATABASE_SERIAL, sourcePgSeconds, transactions));
        double threads =
                cpuByGroup.values().stream().mapToDouble(Double::doubleValue).sum();
        stages.add(StageCost.of(JVM_BESIDE, Kind.BESIDE, Math.max(0, jvmSeconds - threads), transactions));
        return stages;
    }

    /** The sink pipeline's stages; groups that used no CPU in the run are left out ({@link CatchUpTimer} adds the JVM's rest). */
    static List<StageCost> sink(Map<String, Double> cpuByGroup, double targetPgSeconds, long transactions) {
        List<StageCost> stages = new ArrayList<>();
        add(stages, cpuByGroup, ThreadCpu.TASK_THREAD, SINK_TASK, Kind.SERIAL, transactions);
        add(stages, cpuByGroup, ThreadCpu.pglane("decode"), DECODE_LANES, Kind.PARALLEL, transactions);
        add(stages, cpuByGroup, ThreadCpu.pglane("worker"), APPLY_WORKERS, Kind.PARALLEL, transactions);
        stages.add(StageCost.of(TARGET_PG, Kind.DATABASE_PARALLEL, targetPgSeconds, transactions));
        add(stages, cpuByGroup, CatchUpTimer.JVM_REST, JVM_BESIDE, Kind.BESIDE, transactions);
        return stages;
    }

    private static void add(
            List<StageCost> stages,
            Map<String, Double> cpuByGroup,
            String group,
            String stage,
            Kind kind,
            long transactions) {
        Double seconds = cpuByGroup.get(group);
        if (seconds != null && seconds > 0) {
            stages.add(StageCost.of(stage, kind, seconds, transactions));
        }
    }
}
