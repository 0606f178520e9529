package dev.pglane.local.bench.html;

import java.util.List;

/** A named colour in a chart's legend: a kind of system, a component whose CPU a bar adds up, or a run. */
record Series(String name, String colour) {
    /** Okabe and Ito's palette: its colours stay apart for readers with the common colour-vision deficiencies. */
    private static final List<String> PALETTE =
            List.of("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#999999", "#F0E442");

    /** The {@code index}th colour of the palette, for series that have no colour of their own (runs). */
    static Series nth(String name, int index) {
        return new Series(name, PALETTE.get(index % PALETTE.size()));
    }
}
