package dev.pglane.it.bench.snapshot;

import dev.pglane.it.bench.EngineRun;

/**
 * Debezium 3.6.1.Final's initial snapshot of the stage's tables ({@code snapshot.mode=initial_only}) in Debezium's
 * engine, into a consumer that counts its {@code op = r} records, in a JVM of its own ({@link EngineRun}): timed from
 * the engine's start until the consumer had every row. Its slot is dropped afterwards.
 */
final class DebeziumSnapshotRun {
    private final EngineRun engine;
    private final SnapshotData data;

    DebeziumSnapshotRun(EngineRun engine, SnapshotData data) {
        this.engine = engine;
        this.data = data;
    }

    SnapshotMeasurement measure(SnapshotData.Info info, int run) throws Exception {
        String name = "snap_dbz_" + run;
        try {
            EngineRun.SnapshotFigures figures = engine.measureDebeziumSnapshot(
                    SnapshotData.DATABASE, SnapshotData.PUBLICATION, name, info.totalRows(), name);
            return new SnapshotMeasurement(
                    SnapshotSystem.DEBEZIUM,
                    SnapshotStage.DEBEZIUM_DEFAULT_THREADS,
                    run,
                    figures.seconds(),
                    figures.rows(),
                    info.copyBytes(),
                    figures.sourcePgCpu(),
                    null,
                    figures.clientCpu(),
                    null,
                    null);
        } finally {
            data.dropSlot(name);
        }
    }
}
