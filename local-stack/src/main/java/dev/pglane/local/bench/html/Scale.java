package dev.pglane.local.bench.html;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An axis from 0 to a round number at or above the largest value, with ticks at round steps (1, 2, 2.5 or 5 times a
 * power of ten, about four of them), and values written as the charts print them.
 */
record Scale(double max, List<Double> ticks) {
    private static final int TICKS = 4;

    Scale {
        ticks = List.copyOf(ticks);
    }

    /** The scale for values up to {@code largest}; a unit scale when there is nothing above 0 to show. */
    static Scale upTo(double largest) {
        if (!(largest > 0) || Double.isInfinite(largest)) {
            return new Scale(1, List.of(0.0, 0.5, 1.0));
        }
        double rough = largest / TICKS;
        double magnitude = Math.pow(10, Math.floor(Math.log10(rough)));
        double step = magnitude * roundFactor(rough / magnitude);
        double max = Math.ceil(largest / step - 1e-9) * step;
        List<Double> ticks = new ArrayList<>();
        for (int i = 0; i * step <= max + step / 2; i++) {
            ticks.add(i * step);
        }
        return new Scale(max, ticks);
    }

    private static double roundFactor(double rough) {
        if (rough <= 1) {
            return 1;
        }
        if (rough <= 2) {
            return 2;
        }
        if (rough <= 2.5) {
            return 2.5;
        }
        return rough <= 5 ? 5 : 10;
    }

    /** Where {@code value} lies on the axis, 0 at its start and 1 at {@link #max}. */
    double fraction(double value) {
        return value / max;
    }

    /**
     * A value for people: thousands grouped and no decimals from 100 on, otherwise three significant digits at most
     * (0.0812 → 0.081, 12.34 → 12.3), without trailing zeros.
     */
    static String format(double value) {
        if (Math.abs(value) >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (value == 0) {
            return "0";
        }
        BigDecimal rounded = new BigDecimal(value).round(new MathContext(3, RoundingMode.HALF_UP));
        return rounded.stripTrailingZeros().toPlainString();
    }
}
