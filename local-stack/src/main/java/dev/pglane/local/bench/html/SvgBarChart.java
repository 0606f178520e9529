package dev.pglane.local.bench.html;

import static dev.pglane.local.bench.html.SvgCanvas.CHAR_WIDTH;
import static dev.pglane.local.bench.html.SvgCanvas.LEGEND_ROW_HEIGHT;
import static dev.pglane.local.bench.html.SvgCanvas.PAD;
import static dev.pglane.local.bench.html.SvgCanvas.TITLE_HEIGHT;

import dev.pglane.local.bench.Spread;
import java.util.ArrayList;
import java.util.List;

/**
 * A horizontal bar chart as a standalone SVG document: bars under section headings, each a label and one or more
 * segments laid end to end (a bar's parts, coloured by their series), and, where the figure has several runs, a
 * whisker from the smallest run to the largest. Every length is proportional to its value, on one scale from 0 for
 * the whole chart. Horizontal, so that labels as long as the reports' system names stay readable.
 */
final class SvgBarChart {
    static final double WIDTH = 960;
    static final double BAR_HEIGHT = 14;
    private static final double ROW_GAP = 8;
    private static final double LINE_HEIGHT = 14;
    private static final double SECTION_HEIGHT = 26;
    private static final double AXIS_HEIGHT = 40;
    private static final int LABEL_CHARS = 44;

    /** One part of a bar. */
    record Segment(Series series, double value) {}

    /** @param range the smallest and largest run of the bar's total, or null when there is nothing to span */
    private record Bar(String label, List<String> lines, List<Segment> segments, Spread range) {
        double total() {
            return segments.stream().mapToDouble(Segment::value).sum();
        }

        double extent() {
            return range == null ? total() : Math.max(total(), range.max());
        }

        /** The label's lines or the bar, whichever is taller: the bar sits in its middle. */
        double block() {
            return Math.max(BAR_HEIGHT, lines.size() * LINE_HEIGHT);
        }

        double height() {
            return block() + ROW_GAP;
        }

        /** The total, and the runs' range when there is one: what is written beside the bar. */
        String value() {
            return Scale.format(total())
                    + (range == null ? "" : " (" + Scale.format(range.min()) + "–" + Scale.format(range.max()) + ")");
        }
    }

    private record Section(String heading, List<Bar> bars) {}

    /** Where a value lies across the plot. */
    private record Layout(Scale scale, double left, double width) {
        double x(double value) {
            return left + scale.fraction(value) * width;
        }
    }

    private final String title;
    private final String unit;
    private final List<Section> sections = new ArrayList<>();
    private List<Series> legendOrder = List.of();

    /** @param unit what the values count, e.g. {@code tx/s}: the axis's caption */
    SvgBarChart(String title, String unit) {
        this.title = title;
        this.unit = unit;
    }

    /**
     * The legend lists the series the bars use in this order (any other after them, as they first appear), e.g. the
     * parts in the order they are laid end to end, rather than as the first bars happen to use them.
     */
    SvgBarChart legendOrder(List<Series> order) {
        legendOrder = List.copyOf(order);
        return this;
    }

    /** The bars added next go under {@code heading}. */
    SvgBarChart section(String heading) {
        sections.add(new Section(heading, new ArrayList<>()));
        return this;
    }

    /** A bar of {@code spread}'s median, with a whisker over its range when the runs differ. */
    SvgBarChart bar(String label, Series series, Spread spread) {
        return stackedBar(label, List.of(new Segment(series, spread.median())), spread);
    }

    /** A bar of {@code parts} end to end, with a whisker over {@code total}'s range when the runs differ. */
    SvgBarChart stackedBar(String label, List<Segment> parts, Spread total) {
        if (sections.isEmpty()) {
            section("");
        }
        Spread range = total == null || total.min() == total.max() ? null : total;
        sections.get(sections.size() - 1)
                .bars()
                .add(new Bar(label, wrap(label, LABEL_CHARS), List.copyOf(parts), range));
        return this;
    }

    /** The segments of every bar: what the chart draws in colour. */
    int segmentCount() {
        return bars().stream().mapToInt(b -> b.segments().size()).sum();
    }

    String render() {
        List<Bar> bars = bars();
        double labelWidth = bars.stream()
                        .flatMap(b -> b.lines().stream())
                        .mapToInt(String::length)
                        .max()
                        .orElse(0)
                * CHAR_WIDTH;
        double valueWidth =
                bars.stream().mapToInt(b -> b.value().length()).max().orElse(0) * CHAR_WIDTH + 12;
        double plotLeft = PAD + Math.max(labelWidth, 60) + 10;
        Layout layout = new Layout(
                Scale.upTo(bars.stream().mapToDouble(Bar::extent).max().orElse(0)),
                plotLeft,
                WIDTH - plotLeft - valueWidth - PAD);
        List<List<Series>> legend = SvgCanvas.legendRows(legendSeries(bars), WIDTH - 2 * PAD);
        double top = PAD + TITLE_HEIGHT + legend.size() * LEGEND_ROW_HEIGHT + 6;
        double bottom = top + sections.stream().mapToDouble(SvgBarChart::height).sum();
        SvgCanvas canvas = new SvgCanvas("bar-chart", title, WIDTH, bottom + AXIS_HEIGHT + PAD);
        canvas.legend(legend, PAD, PAD + TITLE_HEIGHT);
        axis(canvas, layout, top, bottom);
        double y = top;
        for (Section section : sections) {
            if (!section.heading().isEmpty()) {
                canvas.text("section", PAD, y + 17, "start", section.heading());
                y += SECTION_HEIGHT;
            }
            for (Bar bar : section.bars()) {
                draw(canvas, layout, bar, y);
                y += bar.height();
            }
        }
        return canvas.close();
    }

    private void axis(SvgCanvas canvas, Layout layout, double top, double bottom) {
        for (double tick : layout.scale().ticks()) {
            double x = layout.x(tick);
            canvas.line(tick == 0 ? "axis" : "grid", x, top, x, bottom);
            canvas.text("tick", x, bottom + 14, "middle", Scale.format(tick));
        }
        canvas.text("unit", layout.x(layout.scale().max() / 2), bottom + 32, "middle", unit);
    }

    /** Draws {@code bar}'s row from {@code top}. */
    private void draw(SvgCanvas canvas, Layout layout, Bar bar, double top) {
        double lineTop = top + (bar.block() - bar.lines().size() * LINE_HEIGHT) / 2;
        for (int i = 0; i < bar.lines().size(); i++) {
            canvas.text(
                    "label",
                    layout.left() - 8,
                    lineTop + (i + 1) * LINE_HEIGHT - 3,
                    "end",
                    bar.lines().get(i));
        }
        double y = top + (bar.block() - BAR_HEIGHT) / 2;
        double from = 0;
        for (Segment segment : bar.segments()) {
            double x = layout.x(from);
            canvas.rect(
                    "bar",
                    x,
                    y,
                    layout.x(from + segment.value()) - x,
                    BAR_HEIGHT,
                    segment.series(),
                    (bar.segments().size() == 1
                                    ? bar.label()
                                    : bar.label() + ", " + segment.series().name()) + ": "
                            + Scale.format(segment.value()) + " " + unit);
            from += segment.value();
        }
        double end = layout.x(bar.total());
        if (bar.range() != null) {
            double min = layout.x(bar.range().min());
            double max = layout.x(bar.range().max());
            double middle = y + BAR_HEIGHT / 2;
            canvas.line("range", min, middle, max, middle)
                    .line("range", min, y + 3, min, y + BAR_HEIGHT - 3)
                    .line("range", max, y + 3, max, y + BAR_HEIGHT - 3);
            end = Math.max(end, max);
        }
        canvas.text("value", end + 6, y + BAR_HEIGHT - 3, "start", bar.value());
    }

    private List<Bar> bars() {
        return sections.stream().flatMap(s -> s.bars().stream()).toList();
    }

    private List<Series> legendSeries(List<Bar> bars) {
        List<Series> used = bars.stream()
                .flatMap(b -> b.segments().stream())
                .map(Segment::series)
                .distinct()
                .toList();
        List<Series> legend =
                new ArrayList<>(legendOrder.stream().filter(used::contains).toList());
        used.stream().filter(s -> !legend.contains(s)).forEach(legend::add);
        return legend;
    }

    private static double height(Section section) {
        return (section.heading().isEmpty() ? 0 : SECTION_HEIGHT)
                + section.bars().stream().mapToDouble(Bar::height).sum();
    }

    /** {@code text} in lines of at most {@code width} characters, broken at spaces (a longer word keeps a line). */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " " : "").append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
