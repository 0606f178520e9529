package dev.pglane.it.bench;

import dev.pglane.it.stack.PostgresNode;

/** CPU seconds of the parts a catch-up involves: the source server, the target server and this JVM. */
final class CpuMeter {
    /** CPU seconds so far, or over a phase once {@link #since} has taken an earlier reading off. */
    record Reading(double sourcePg, double targetPg, double jvm) {
        Reading since(Reading earlier) {
            return new Reading(sourcePg - earlier.sourcePg, targetPg - earlier.targetPg, jvm - earlier.jvm);
        }
    }

    private final long sourcePostmaster;
    private final long targetPostmaster;

    CpuMeter(PostgresNode source, PostgresNode target) {
        this.sourcePostmaster = ProcCpu.postmasterPid(source.dataDirectory());
        this.targetPostmaster = ProcCpu.postmasterPid(target.dataDirectory());
    }

    Reading read() {
        return new Reading(
                ProcCpu.serverSeconds(sourcePostmaster), ProcCpu.serverSeconds(targetPostmaster), ProcCpu.jvmSeconds());
    }
}
