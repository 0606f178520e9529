package dev.pglane.sink.progress;

import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.Marker;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses to go on when the marker topic announces a source run on another PostgreSQL server than the one the
 * target's position was applied from. Deduplication is by LSN alone, and LSNs only order one server's WAL: a
 * source rebuilt or swapped under the same topic prefix starts at LSNs the sink has passed long ago, and every
 * one of its transactions would be dropped as already applied. Each run of the source announces its server in its
 * START marker, before any of its transactions; the progress table records it with every applied transaction.
 *
 * <p>A higher timeline of the same system is a promotion or a point-in-time recovery and is followed; a lower one
 * means the source went back to an older history, which the target is past, and is refused too.
 *
 * <p>{@link #observe} runs on the task thread; {@link #known} is read by the apply workers.
 */
public final class SourceIdentityCheck {
    private static final Logger log = LoggerFactory.getLogger(SourceIdentityCheck.class);

    private final String sourceServer;
    private volatile SourceIdentity known = SourceIdentity.UNKNOWN;
    /** The end LSN the target holds: stored at start, then each transaction the task saw committed. */
    private Lsn appliedThrough = Lsn.INVALID;

    /** @param sourceServer the source's topic prefix, for messages */
    public SourceIdentityCheck(String sourceServer) {
        this.sourceServer = sourceServer;
    }

    /** What the target holds: its position and the server it was applied from. */
    public void stored(AppliedPosition position) {
        appliedThrough = position.endLsn();
        if (position.source().isKnown()) {
            known = position.source();
        }
    }

    /** The target committed transactions up to {@code endLsn}; for the message of a refusal. */
    public void applied(Lsn endLsn) {
        if (endLsn.compareTo(appliedThrough) > 0) {
            appliedThrough = endLsn;
        }
    }

    /** The server the applied transactions come from, as far as known. */
    public SourceIdentity known() {
        return known;
    }

    /**
     * A source run announced itself.
     *
     * @throws ConnectException naming both servers if it runs on another server than the known one, or on an
     *     older timeline of it
     */
    public void observe(Marker.Start start) {
        SourceIdentity announced = SourceIdentity.of(start.systemId(), start.timeline());
        SourceIdentity current = known;
        if (!announced.isKnown()) {
            return;
        }
        if (!current.isKnown()) {
            log.info("Source {} runs on PostgreSQL {}", sourceServer, announced);
            known = announced;
            return;
        }
        if (!announced.systemId().equals(current.systemId())) {
            throw new ConnectException("The source under topic prefix " + sourceServer + " now reads PostgreSQL "
                    + announced + " (START marker of generation " + start.generation() + ", resume LSN "
                    + start.resumeLsn() + "), but the target's position" + storedPosition() + " was applied from "
                    + current + ". LSNs of different servers cannot be compared, so its transactions would be taken"
                    + " as applied and dropped. If the source was replaced on purpose, give it a new topic.prefix,"
                    + " or start the sink over on a fresh target (new sink name or progress table)");
        }
        if (announced.timeline() != null && current.timeline() != null) {
            int order = Long.compare(announced.timeline(), current.timeline());
            if (order < 0) {
                throw new ConnectException("The source under topic prefix " + sourceServer + " now reads "
                        + announced + ", an older timeline than the " + current + " the target's position"
                        + storedPosition() + " was applied from: the source went back to a history the target is"
                        + " past. Start the sink over on a fresh target");
            }
            if (order > 0) {
                log.info(
                        "Source {} moved from timeline {} to {} (a promotion or point-in-time recovery)",
                        sourceServer,
                        current.timeline(),
                        announced.timeline());
                known = announced;
            }
        }
    }

    private String storedPosition() {
        return appliedThrough.isValid() ? " (end LSN " + appliedThrough + ")" : "";
    }
}
