package dev.pglane.local.bench.ceiling;

/**
 * What one stage of a pipeline cost per transaction in a measured run, and how it can use more cores.
 *
 * @param name the stage for people, e.g. {@code source reader thread}
 * @param kind how the stage can use cores, see {@link CeilingProjection}
 * @param microsPerTransaction CPU microseconds the stage spent per source transaction
 */
public record StageCost(String name, Kind kind, double microsPerTransaction) {
    /** How a stage can use cores. */
    public enum Kind {
        /** One thread of the connector's: one core of the connector's host at most. */
        SERIAL("serial"),
        /** Threads of the connector's that divide the work between them: the host's cores the serial ones leave. */
        PARALLEL("parallel"),
        /** One database process per pipeline (the source's walsender decoding its slot): one core of its host. */
        DATABASE_SERIAL("database, serial"),
        /** Database backends working at once (the target's apply sessions): every core of the database's host. */
        DATABASE_PARALLEL("database, parallel"),
        /**
         * CPU of the measured JVM that no thread of the pipeline's accounts for (garbage collection, the JIT
         * compilers, threads that ended), shown beside the stages but left out of the ceiling: the broker and the
         * benchmark in the same JVM have their share in it, which thread times cannot split off.
         */
        BESIDE("beside, not in the ceiling");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** For people and for {@code report.json}. */
        public String label() {
            return label;
        }
    }

    public StageCost {
        if (!(microsPerTransaction >= 0) || Double.isInfinite(microsPerTransaction)) {
            throw new IllegalArgumentException(
                    name + ": CPU per transaction must be a finite figure of at least 0, not " + microsPerTransaction);
        }
    }

    /** A stage measured as {@code cpuSeconds} over {@code transactions} source transactions. */
    public static StageCost of(String name, Kind kind, double cpuSeconds, long transactions) {
        if (transactions <= 0) {
            throw new IllegalArgumentException(name + ": no transactions to divide " + cpuSeconds + " CPU s by");
        }
        return new StageCost(name, kind, cpuSeconds * 1e6 / transactions);
    }
}
