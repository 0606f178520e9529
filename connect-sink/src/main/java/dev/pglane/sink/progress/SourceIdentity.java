package dev.pglane.sink.progress;

/**
 * Which PostgreSQL server the applied transactions come from: its system identifier (set by initdb, kept by
 * physical replicas and backups) and timeline (one more after each promotion or point-in-time recovery). LSNs
 * only order the transactions of one server, so the sink's position means nothing for another one.
 *
 * @param systemId the system identifier in decimal, or {@code null} if unknown
 * @param timeline the timeline, or {@code null} if unknown
 */
public record SourceIdentity(String systemId, Long timeline) {
    /** Nothing known: a source or a progress store of a version that did not record it. */
    public static final SourceIdentity UNKNOWN = new SourceIdentity(null, null);

    public static SourceIdentity of(String systemId, Long timeline) {
        return systemId == null ? UNKNOWN : new SourceIdentity(systemId, timeline);
    }

    public boolean isKnown() {
        return systemId != null;
    }

    @Override
    public String toString() {
        return isKnown()
                ? "system " + systemId + (timeline == null ? "" : " timeline " + timeline)
                : "an unknown system";
    }
}
