package dev.pglane.local.bench;

import dev.pglane.local.stack.PostgresNode;

/** CPU seconds of the parts a catch-up involves: the source server, the target server and this JVM. */
public final class CpuMeter {
    /** CPU seconds so far, or over a phase once {@link #since} has taken an earlier reading off. */
    public record Reading(double sourcePg, double targetPg, double jvm) {
        public Reading since(Reading earlier) {
            return new Reading(sourcePg - earlier.sourcePg, targetPg - earlier.targetPg, jvm - earlier.jvm);
        }
    }

    private final long sourcePostmaster;
    private final long targetPostmaster;

    public CpuMeter(PostgresNode source, PostgresNode target) {
        this.sourcePostmaster = ProcCpu.postmasterPid(source.dataDirectory());
        this.targetPostmaster = ProcCpu.postmasterPid(target.dataDirectory());
    }

    public Reading read() {
        return new Reading(
                ProcCpu.serverSeconds(sourcePostmaster), ProcCpu.serverSeconds(targetPostmaster), ProcCpu.jvmSeconds());
    }
}
