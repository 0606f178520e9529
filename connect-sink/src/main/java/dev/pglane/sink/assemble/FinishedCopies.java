package dev.pglane.sink.assemble;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded memory of copies the assembler is done with (released, already applied, aborted), so
 * that late or redelivered records of them are dropped instead of starting a copy that never
 * completes. The oldest entries are forgotten first: by then their records are long past.
 */
final class FinishedCopies {
    static final int DEFAULT_CAPACITY = 100_000;

    private final Map<CopyKey, String> reasons;

    FinishedCopies(int capacity) {
        this.reasons = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<CopyKey, String> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Remembers {@code key} as finished because of {@code reason} (the listener's drop reason). */
    void finish(CopyKey key, String reason) {
        reasons.putIfAbsent(key, reason);
    }

    /** Why {@code key} is finished, or null if it is not (or no longer remembered). */
    String reason(CopyKey key) {
        return reasons.get(key);
    }

    /** True if some copy of {@code xid} is remembered as finished. */
    boolean anyOf(long xid) {
        return reasons.keySet().stream().anyMatch(key -> key.xid() == xid);
    }
}
