package dev.pglane.local.bench.html;

import static dev.pglane.local.bench.html.SvgCanvas.LEGEND_ROW_HEIGHT;
import static dev.pglane.local.bench.html.SvgCanvas.PAD;
import static dev.pglane.local.bench.html.SvgCanvas.TITLE_HEIGHT;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A line chart as a standalone SVG document: a line per series through its points, each point marked, on axes that
 * both start at 0.
 */
final class SvgLineChart {
    static final double WIDTH = 960;
    static final double PLOT_HEIGHT = 280;
    private static final double LEFT = 64;
    private static final double AXIS_HEIGHT = 40;
    private static final double POINT_RADIUS = 1.8;

    /** A reading: {@code x} along the horizontal axis, {@code y} up the vertical one. */
    record Point(double x, double y) {}

    private record Line(Series series, List<Point> points) {}

    private final String title;
    private final String xUnit;
    private final String yUnit;
    private final List<Line> lines = new ArrayList<>();

    SvgLineChart(String title, String xUnit, String yUnit) {
        this.title = title;
        this.xUnit = xUnit;
        this.yUnit = yUnit;
    }

    SvgLineChart line(Series series, List<Point> points) {
        lines.add(new Line(series, List.copyOf(points)));
        return this;
    }

    String render() {
        List<List<Series>> legend =
                SvgCanvas.legendRows(lines.stream().map(Line::series).toList(), WIDTH - 2 * PAD);
        double top = PAD + TITLE_HEIGHT + legend.size() * LEGEND_ROW_HEIGHT + 10;
        double bottom = top + PLOT_HEIGHT;
        double right = WIDTH - PAD - 10;
        Scale xScale = Scale.upTo(max(Point::x));
        Scale yScale = Scale.upTo(max(Point::y));
        SvgCanvas canvas = new SvgCanvas("line-chart", title, WIDTH, bottom + AXIS_HEIGHT + PAD);
        canvas.legend(legend, PAD, PAD + TITLE_HEIGHT);
        for (double tick : yScale.ticks()) {
            double y = bottom - yScale.fraction(tick) * PLOT_HEIGHT;
            canvas.line(tick == 0 ? "axis" : "grid", LEFT, y, right, y)
                    .text("tick", LEFT - 6, y + 4, "end", Scale.format(tick));
        }
        for (double tick : xScale.ticks()) {
            double x = LEFT + xScale.fraction(tick) * (right - LEFT);
            canvas.line(tick == 0 ? "axis" : "grid", x, top, x, bottom)
                    .text("tick", x, bottom + 14, "middle", Scale.format(tick));
        }
        canvas.text("unit", (LEFT + right) / 2, bottom + 32, "middle", xUnit)
                .upwardText("unit", PAD + 6, (top + bottom) / 2, yUnit);
        for (Line line : lines) {
            List<double[]> at = line.points().stream()
                    .map(p -> new double[] {
                        LEFT + xScale.fraction(p.x()) * (right - LEFT), bottom - yScale.fraction(p.y()) * PLOT_HEIGHT
                    })
                    .toList();
            canvas.polyline("line", line.series(), at);
            for (int i = 0; i < at.size(); i++) {
                Point p = line.points().get(i);
                canvas.circle(
                        "point",
                        at.get(i)[0],
                        at.get(i)[1],
                        POINT_RADIUS,
                        line.series(),
                        line.series().name() + ": (" + Scale.format(p.x()) + ", " + Scale.format(p.y()) + ")");
            }
        }
        return canvas.close();
    }

    private double max(ToDoubleFunction<Point> coordinate) {
        return lines.stream()
                .flatMap(l -> l.points().stream())
                .mapToDouble(coordinate)
                .max()
                .orElse(0);
    }
}
