package dev.pglane.sink.target;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * WARNs once per key, where keys come from record data (table and column names): a bounded number of keys is
 * remembered (the least recently warned of are forgotten, so one may be warned of again), and new keys are warned of
 * at most {@link #BURST} times a minute, so that a writer of the topics who names ever new tables cannot grow the
 * memory or flood the log. Those held back are counted and said with the next WARN. Thread-safe.
 */
public final class WarnOnce {
    /** Keys remembered. */
    public static final int MAX_KEYS = 1024;
    /** New keys warned of per minute, at most. */
    static final int BURST = 20;

    private static final long MINUTE_NANOS = 60_000_000_000L;

    private final Logger log;
    private final LongSupplier nanoTime;
    private final Map<String, Boolean> keys = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > MAX_KEYS;
        }
    };

    private long windowStart;
    private int inWindow;
    private long held;

    public WarnOnce(Logger log) {
        this(log, System::nanoTime);
    }

    /** For testing: {@code nanoTime} is the clock of the rate limit. */
    WarnOnce(Logger log, LongSupplier nanoTime) {
        this.log = log;
        this.nanoTime = nanoTime;
        this.windowStart = nanoTime.getAsLong();
    }

    /**
     * Logs {@code message} unless {@code key} was warned of already, or the minute's WARNs are used up.
     *
     * @return whether this key was new (whether or not its WARN was held back)
     */
    public synchronized boolean warn(String key, String message) {
        if (keys.put(key, Boolean.TRUE) != null) {
            return false;
        }
        long now = nanoTime.getAsLong();
        if (now - windowStart >= MINUTE_NANOS) {
            windowStart = now;
            inWindow = 0;
        }
        if (inWindow >= BURST) {
            held++;
            return true;
        }
        inWindow++;
        if (held > 0) {
            log.warn("{} ({} similar warning(s) held back in the last minute)", message, held);
            held = 0;
        } else {
            log.warn(message);
        }
        return true;
    }
}
