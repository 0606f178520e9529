package dev.pglane.local.bench.html;

import dev.pglane.local.bench.CatchUpConfiguration;
import dev.pglane.local.bench.SourceSystem;
import dev.pglane.local.bench.snapshot.SnapshotSystem;

/**
 * What a run measured, for people: the system with its settings, named as {@code report.md} names it; the colour of
 * its kind (pglane, PostgreSQL's own tools, Debezium); and its place among its stage's bars.
 */
record Configuration(String label, Series kind, int order) {
    static final Series PGLANE = new Series("pglane", "#0072B2");
    static final Series POSTGRESQL = new Series("PostgreSQL's own (pg_recvlogical, subscriber, COPY)", "#009E73");
    static final Series DEBEZIUM = new Series("Debezium", "#D55E00");

    /** After every known system of a stage: one this version does not name. */
    private static final int UNKNOWN = 1_000_000;

    static Configuration of(ReportEntry entry) {
        Series kind = entry.system().startsWith("pglane")
                ? PGLANE
                : entry.system().equals("debezium") ? DEBEZIUM : POSTGRESQL;
        return switch (entry.stageKind()) {
            case "source" ->
                SourceSystem.inReport(entry.system(), entry.consumer())
                        .map(s -> new Configuration(s.label(), kind, s.ordinal()))
                        .orElse(new Configuration(entry.system() + " -> " + entry.consumer(), kind, UNKNOWN));
            case "snapshot" ->
                SnapshotSystem.ofKey(entry.system())
                        .map(s -> new Configuration(
                                s.label(entry.workers()), kind, s.ordinal() * 1_000 + entry.workers()))
                        .orElse(new Configuration(entry.system() + ", " + entry.workers(), kind, UNKNOWN));
            default -> catchUp(entry, kind);
        };
    }

    /** The sink's stages and the end-to-end stage: PostgreSQL's subscriber first, then pglane by worker count. */
    private static Configuration catchUp(ReportEntry entry, Series kind) {
        CatchUpConfiguration configuration = new CatchUpConfiguration(entry.system(), entry.workers());
        String format = entry.format().isEmpty() ? "" : ", " + entry.format();
        return new Configuration(configuration.label() + format, kind, configuration.isNative() ? 0 : entry.workers());
    }
}
