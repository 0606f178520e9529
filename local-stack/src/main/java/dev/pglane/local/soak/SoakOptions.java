package dev.pglane.local.soak;

import dev.pglane.local.stack.PostgresVersion;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How a soak runs.
 *
 * @param duration how long the workload runs while faults are injected
 * @param faultInterval the mean pause between the recovery from one fault and the next fault
 * @param seed decides the workload's choices and the faults' kinds, order and durations
 * @param workers the sink's {@code apply.workers}
 * @param clients the workload's concurrent sessions
 */
public record SoakOptions(
        PostgresVersion version,
        Path workDir,
        Path pluginPath,
        Duration duration,
        Duration faultInterval,
        long seed,
        int workers,
        int clients) {}
