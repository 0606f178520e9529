package dev.pglane.local.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source stage on one backlog: each reader catches up from a slot of its own ({@link SourceSystem#slot}), all
 * created at the same position before the backlog, so that every reader decodes exactly the same changes.
 */
final class SourceStage {
    private static final Logger log = LoggerFactory.getLogger(SourceStage.class);

    /** One reader catching up from {@code slot} until the backlog's end. */
    interface Reader {
        Measurement measure(String slot, Backlog.Info backlog, int run) throws Exception;
    }

    private final Map<SourceSystem, Reader> readers = new LinkedHashMap<>();

    SourceStage with(SourceSystem system, Reader reader) {
        readers.put(system, reader);
        return this;
    }

    /** The slots of run {@code run}, one per reader. */
    List<String> slots(int run) {
        return readers.keySet().stream().map(system -> system.slot(run)).toList();
    }

    /**
     * Every reader in turn on its slot of run {@code run}. The order rotates with the run, so that no reader always
     * finds the WAL cold (or warm) in the page cache.
     */
    List<Measurement> measure(Backlog.Info backlog, int run) throws Exception {
        List<SourceSystem> order = new ArrayList<>(readers.keySet());
        Collections.rotate(order, -(run - 1));
        List<Measurement> measured = new ArrayList<>();
        for (SourceSystem system : order) {
            measured.add(logged(run, readers.get(system).measure(system.slot(run), backlog, run)));
        }
        return measured;
    }

    private static Measurement logged(int run, Measurement m) {
        log.info(
                "run {}, {}: {} s, {} changes/s, {} tx/s, client CPU {} s, source PostgreSQL CPU {} s",
                run,
                m.system(),
                format("%.2f", m.seconds()),
                Math.round(m.changesPerSecond()),
                Math.round(m.transactionsPerSecond()),
                format("%.2f", m.clientCpuSeconds()),
                format("%.2f", m.sourceCpuSeconds()));
        return m;
    }

    private static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
