package dev.pglane.local.bench;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A horizontal bar chart in plain text, for reports read in a terminal or as markdown code. */
final class AsciiBars {
    private static final int WIDTH = 50;

    private final Map<String, Double> bars = new LinkedHashMap<>();

    /** Adds a bar; bars keep the order they were added in. */
    AsciiBars bar(String label, double value) {
        bars.put(label, value);
        return this;
    }

    /** One line per bar, the longest {@value #WIDTH} characters, each followed by its value. */
    String render() {
        double max =
                bars.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        int labelWidth = bars.keySet().stream().mapToInt(String::length).max().orElse(0);
        StringBuilder chart = new StringBuilder();
        bars.forEach((label, value) -> {
            int length = max <= 0 ? 0 : (int) Math.round(value / max * WIDTH);
            chart.append(String.format(Locale.ROOT, "%-" + labelWidth + "s |", label))
                    .append("#".repeat(length))
                    .append(String.format(Locale.ROOT, " %,.0f\n", value));
        });
        return chart.toString();
    }
}
