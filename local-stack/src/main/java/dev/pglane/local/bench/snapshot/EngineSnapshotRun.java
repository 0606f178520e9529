package dev.pglane.local.bench.snapshot;

import dev.pglane.local.bench.EngineRun;

/**
 * An initial snapshot of the stage's tables ({@code snapshot.mode=initial_only}) in Debezium's engine, into a
 * consumer that counts its {@code op = r} records, in a JVM of its own ({@link EngineRun}): Debezium 3.6.1.Final's
 * connector, or pglane's source from its packaged plugin. Timed from the engine's start until the consumer had every
 * row; the slot is dropped afterwards. Both connectors run in the same engine and consumer, with no converter and no
 * Kafka, so their ratio is the connectors' own.
 */
final class EngineSnapshotRun {
    private final EngineRun engine;
    private final SnapshotData data;

    EngineSnapshotRun(EngineRun engine, SnapshotData data) {
        this.engine = engine;
        this.data = data;
    }

    SnapshotMeasurement debezium(SnapshotData.Info info, int run) throws Exception {
        String name = "snap_dbz_" + run;
        try {
            return measurement(
                    SnapshotSystem.DEBEZIUM,
                    SnapshotStage.DEBEZIUM_DEFAULT_THREADS,
                    run,
                    info,
                    engine.measureDebeziumSnapshot(
                            SnapshotData.DATABASE, SnapshotData.PUBLICATION, name, info.totalRows(), name));
        } finally {
            data.dropSlot(name);
        }
    }

    SnapshotMeasurement pglane(SnapshotData.Info info, int threads, int run) throws Exception {
        String name = "snap_engine_t" + threads + "_" + run;
        try {
            return measurement(
                    SnapshotSystem.PGLANE_ENGINE,
                    threads,
                    run,
                    info,
                    engine.measurePglaneSnapshot(
                            SnapshotData.DATABASE, SnapshotData.PUBLICATION, name, info.totalRows(), name, threads));
        } finally {
            data.dropSlot(name);
        }
    }

    private static SnapshotMeasurement measurement(
            SnapshotSystem system, int threads, int run, SnapshotData.Info info, EngineRun.SnapshotFigures figures) {
        return new SnapshotMeasurement(
                system,
                threads,
                run,
                figures.seconds(),
                figures.rows(),
                info.copyBytes(),
                figures.sourcePgCpu(),
                null,
                figures.clientCpu(),
                null,
                null,
                null);
    }
}
