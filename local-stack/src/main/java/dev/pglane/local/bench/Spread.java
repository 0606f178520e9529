package dev.pglane.local.bench;

import java.util.List;

/** The median and range of one figure over a benchmark's runs. */
public record Spread(double median, double min, double max) {
    public static Spread of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values to summarise");
        }
        double[] sorted =
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new Spread(median, sorted[0], sorted[n - 1]);
    }
}
