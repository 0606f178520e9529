package dev.pglane.source.snapshot;

import dev.pglane.source.signal.RowCondition;
import dev.pglane.source.signal.SnapshotFilter;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far a snapshot has got, as the source offset carries it: per table, the bound below which every chunk has been
 * sent and committed with its transaction's END, or that the table is done. A restart continues each table from its
 * bound, so it sends again at most the chunks that were in flight, never a chunk's effect twice over: a chunk sent
 * again is read afresh and overwrites the rows with their current values.
 *
 * <p>The text form is {@code 1;<snapshot id>;<table>=<state>;...}, every part URL-encoded, a state being {@code -}
 * (not started), {@code *} (done) or {@code k<value>,<value>...}. A table a signal filtered has
 * {@code !t<values>} (where its range ends) and {@code !w<condition>} after its state, and makes the text's version
 * 2, which versions before filters refuse rather than send the table whole. A condition the {@link RowCondition}
 * grammar does not admit (one an older version took as SQL text) is not run: its table is done, with a WARN. Ranges
 * sent beyond a table's bound ({@link SentRange}) follow as {@code !s<lower>~<upper>}, each a state, and make the
 * version 3: a restart cuts around them, so no range is sent twice.
 */
public final class SnapshotProgress {
    private static final Logger log = LoggerFactory.getLogger(SnapshotProgress.class);

    private static final String VERSION = "1";
    private static final String FILTERED_VERSION = "2";
    private static final String SENT_AHEAD_VERSION = "3";

    private final String snapshotId;
    private final Map<String, ChunkBound> doneBelow;
    private final List<String> done;
    private final Map<String, SnapshotFilter> filters;
    private final Map<String, List<SentRange>> sentAhead;

    private SnapshotProgress(
            String snapshotId,
            Map<String, ChunkBound> doneBelow,
            List<String> done,
            Map<String, SnapshotFilter> filters,
            Map<String, List<SentRange>> sentAhead) {
        this.snapshotId = snapshotId;
        this.doneBelow = doneBelow;
        this.done = done;
        this.filters = filters;
        this.sentAhead = sentAhead;
    }

    /** A snapshot of {@code tables} ({@code schema.table}) that has not sent anything yet. */
    public static SnapshotProgress start(String snapshotId, List<String> tables) {
        return start(snapshotId, tables, Map.of());
    }

    /**
     * A snapshot of {@code tables} that has not sent anything yet, of which those in {@code filters} send only the rows
     * their filter admits, from the start of its key range.
     */
    public static SnapshotProgress start(String snapshotId, List<String> tables, Map<String, SnapshotFilter> filters) {
        Map<String, ChunkBound> bounds = new LinkedHashMap<>();
        Map<String, SnapshotFilter> kept = new LinkedHashMap<>();
        for (String table : tables) {
            SnapshotFilter filter = filters.get(table);
            bounds.put(table, filter == null || filter.from() == null ? null : new ChunkBound.Key(filter.from()));
            if (filter != null) {
                // its start is the table's bound from now on
                kept.put(table, new SnapshotFilter(null, filter.to(), filter.where()));
            }
        }
        return new SnapshotProgress(snapshotId, bounds, List.of(), kept, Map.of());
    }

    /** The filter of {@code table}, or {@code null} when all its rows are sent. */
    SnapshotFilter filter(String table) {
        return filters.get(table);
    }

    public String snapshotId() {
        return snapshotId;
    }

    /** The tables with rows still to send, for messages. */
    public List<String> unfinishedTables() {
        return List.copyOf(doneBelow.keySet());
    }

    /** The tables still to be sent, each with the bound it continues from ({@code null}: its start). */
    Map<String, ChunkBound> remaining() {
        return Collections.unmodifiableMap(doneBelow);
    }

    /** The ranges of {@code table} sent beyond its bound, in key order. */
    List<SentRange> sentAhead(String table) {
        return sentAhead.getOrDefault(table, List.of());
    }

    boolean isDone(String table) {
        return done.contains(table);
    }

    /** This progress with {@code table} continuing from {@code bound}, or done when {@code bound} is null. */
    SnapshotProgress with(String table, ChunkBound bound, boolean tableDone) {
        return with(table, bound, List.of(), tableDone);
    }

    /** As {@link #with(String, ChunkBound, boolean)}, with the ranges {@code sent} beyond {@code bound}. */
    SnapshotProgress with(String table, ChunkBound bound, List<SentRange> sent, boolean tableDone) {
        Map<String, ChunkBound> bounds = new LinkedHashMap<>(doneBelow);
        List<String> finished = new ArrayList<>(done);
        Map<String, SnapshotFilter> kept = new LinkedHashMap<>(filters);
        Map<String, List<SentRange>> ahead = new LinkedHashMap<>(sentAhead);
        ahead.remove(table);
        if (tableDone) {
            bounds.remove(table);
            kept.remove(table);
            if (!finished.contains(table)) {
                finished.add(table);
            }
        } else {
            bounds.put(table, bound);
            if (!sent.isEmpty()) {
                ahead.put(table, List.copyOf(sent));
            }
        }
        return new SnapshotProgress(snapshotId, bounds, List.copyOf(finished), kept, ahead);
    }

    /**
     * This progress with {@code table} (again) to send from the start, as {@code filter} says ({@code null}: all its
     * rows).
     */
    SnapshotProgress restart(String table, SnapshotFilter filter) {
        SnapshotProgress fresh = start(snapshotId, List.of(table), filter == null ? Map.of() : Map.of(table, filter));
        Map<String, ChunkBound> bounds = new LinkedHashMap<>(doneBelow);
        bounds.put(table, fresh.doneBelow.get(table));
        List<String> finished = new ArrayList<>(done);
        finished.remove(table);
        Map<String, SnapshotFilter> kept = new LinkedHashMap<>(filters);
        kept.remove(table);
        kept.putAll(fresh.filters);
        Map<String, List<SentRange>> ahead = new LinkedHashMap<>(sentAhead);
        ahead.remove(table);
        return new SnapshotProgress(snapshotId, bounds, List.copyOf(finished), kept, ahead);
    }

    /** True when every table is done. */
    boolean complete() {
        return doneBelow.isEmpty();
    }

    public String toText() {
        String version = !sentAhead.isEmpty() ? SENT_AHEAD_VERSION : filters.isEmpty() ? VERSION : FILTERED_VERSION;
        StringBuilder text = new StringBuilder(version).append(';').append(encode(snapshotId));
        for (Map.Entry<String, ChunkBound> table : doneBelow.entrySet()) {
            text.append(';').append(encode(table.getKey())).append('=').append(state(table.getValue()));
            SnapshotFilter filter = filters.get(table.getKey());
            if (filter != null && filter.to() != null) {
                text.append("!t").append(state(new ChunkBound.Key(filter.to())).substring(1));
            }
            if (filter != null && filter.where() != null) {
                text.append("!w").append(encode(filter.where().text()));
            }
            for (SentRange sent : sentAhead(table.getKey())) {
                text.append("!s").append(state(sent.lower())).append('~').append(state(sent.upper()));
            }
        }
        for (String table : done) {
            text.append(';').append(encode(table)).append("=*");
        }
        return text.toString();
    }

    /** @throws IllegalArgumentException naming the problem if {@code text} is not a progress text */
    public static SnapshotProgress parse(String text) {
        String[] parts = text.split(";", -1);
        if (parts.length < 2
                || !List.of(VERSION, FILTERED_VERSION, SENT_AHEAD_VERSION).contains(parts[0])) {
            throw new IllegalArgumentException("not a pglane snapshot progress of version " + VERSION + ", "
                    + FILTERED_VERSION + " or " + SENT_AHEAD_VERSION + ": " + text);
        }
        Map<String, ChunkBound> bounds = new LinkedHashMap<>();
        List<String> finished = new ArrayList<>();
        Map<String, SnapshotFilter> filters = new LinkedHashMap<>();
        Map<String, List<SentRange>> ahead = new LinkedHashMap<>();
        for (int i = 2; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("snapshot progress entry without a table: " + parts[i]);
            }
            String table = decode(parts[i].substring(0, eq));
            String state = parts[i].substring(eq + 1);
            if (state.equals("*")) {
                finished.add(table);
                continue;
            }
            String[] filterParts = state.split("!", -1);
            List<SentRange> sent = sentRanges(filterParts);
            if (!sent.isEmpty()) {
                ahead.put(table, sent);
            }
            try {
                if (Arrays.stream(filterParts).skip(1).anyMatch(p -> !p.startsWith("s"))) {
                    filters.put(table, filter(filterParts));
                }
            } catch (RefusedCondition e) {
                log.warn(
                        "Snapshot {}: table {} is left out: the condition its progress carries is not one this"
                                + " version runs ({})",
                        decode(parts[1]),
                        table,
                        e.getMessage());
                finished.add(table);
                continue;
            }
            bounds.put(table, bound(filterParts[0]));
        }
        return new SnapshotProgress(decode(parts[1]), bounds, List.copyOf(finished), filters, ahead);
    }

    /** The {@code !s<lower>~<upper>} parts of a table's state. */
    private static List<SentRange> sentRanges(String[] parts) {
        List<SentRange> sent = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            if (parts[i].startsWith("s")) {
                String[] bounds = parts[i].substring(1).split("~", -1);
                if (bounds.length != 2) {
                    throw new IllegalArgumentException("snapshot progress range without two bounds: " + parts[i]);
                }
                sent.add(new SentRange((ChunkBound.Key) bound(bounds[0]), (ChunkBound.Key) bound(bounds[1])));
            }
        }
        return sent;
    }

    private static SnapshotFilter filter(String[] parts) {
        List<String> to = null;
        RowCondition where = null;
        for (int i = 1; i < parts.length; i++) {
            if (parts[i].startsWith("t")) {
                to = ((ChunkBound.Key) bound("k" + parts[i].substring(1))).values();
            } else if (parts[i].startsWith("s")) {
                continue; // a sent range, read by sentRanges
            } else if (parts[i].startsWith("w")) {
                try {
                    where = RowCondition.parse(decode(parts[i].substring(1)));
                } catch (IllegalArgumentException e) {
                    throw new RefusedCondition(e.getMessage());
                }
            } else {
                throw new IllegalArgumentException("unknown snapshot filter part " + parts[i]);
            }
        }
        return new SnapshotFilter(null, to, where);
    }

    /** A stored condition the grammar refuses; the table is left out rather than the offset unreadable. */
    private static final class RefusedCondition extends IllegalArgumentException {
        RefusedCondition(String message) {
            super(message);
        }
    }

    private static String state(ChunkBound bound) {
        if (bound == null) {
            return "-";
        }
        List<String> values = ((ChunkBound.Key) bound).values();
        StringBuilder text = new StringBuilder("k");
        for (int i = 0; i < values.size(); i++) {
            text.append(i == 0 ? "" : ",").append(encode(values.get(i)));
        }
        return text.toString();
    }

    private static ChunkBound bound(String state) {
        if (state.equals("-")) {
            return null;
        }
        if (state.startsWith("k")) {
            List<String> values = new ArrayList<>();
            for (String value : state.substring(1).split(",", -1)) {
                values.add(decode(value));
            }
            return new ChunkBound.Key(values);
        }
        throw new IllegalArgumentException("unknown snapshot progress state " + state);
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return toText();
    }
}
