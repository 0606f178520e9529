package dev.pglane.local.bench;

/**
 * The whole pipeline under a sustained pgbench load for a fixed time, then draining what was left.
 *
 * @param format what the connectors wrote and read in Kafka
 * @param loadSeconds how long pgbench ran
 * @param transactions pgbench's transactions (four row changes each)
 * @param drainSeconds from the load's end until the sink had applied everything (the fence)
 * @param lag the sink's lag during the load
 * @param cpu CPU seconds of each part over the load and the drain
 */
record EndToEndMeasurement(
        BenchFormat format,
        int workers,
        int run,
        double loadSeconds,
        long transactions,
        double drainSeconds,
        LagSummary lag,
        CpuMeter.Reading cpu) {

    double generationRate() {
        return transactions / loadSeconds;
    }

    /** Transactions over the time until all were applied: the rate the sink sustained. */
    double applyRate() {
        return transactions / (loadSeconds + drainSeconds);
    }

    double cpuPerThousand() {
        return (cpu.sourcePg() + cpu.targetPg() + cpu.jvm()) / transactions * 1000;
    }
}
