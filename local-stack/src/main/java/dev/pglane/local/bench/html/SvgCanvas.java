package dev.pglane.local.bench.html;

import static dev.pglane.local.bench.html.Markup.escape;
import static dev.pglane.local.bench.html.Markup.px;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One SVG document being drawn, for the charts: a white background (readable on a dark page too), the title, a legend,
 * and shapes and text whose every piece of text is escaped here. The document stands alone, as a file or inline in
 * HTML: its styles are inside it and scoped to its class, and it loads nothing.
 */
final class SvgCanvas {
    static final double PAD = 12;
    static final double TITLE_HEIGHT = 28;
    static final double LEGEND_ROW_HEIGHT = 20;
    /**
     * The width of a character at the charts' 12 px, a little above DejaVu Sans' average (the widest of the fonts
     * asked for): an estimate, since nothing here can measure text, and one that errs towards room to spare.
     */
    static final double CHAR_WIDTH = 7.0;

    private static final double SWATCH = 11;
    private static final double LEGEND_GAP = 22;
    private static final String FONT = "system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', Arial, sans-serif";
    private static final String STYLE = String.join(
            "",
            ".pglane-chart text{font-family:" + FONT + ";font-size:12px;fill:#1f2328}",
            ".pglane-chart .title{font-size:14px;font-weight:bold}",
            ".pglane-chart .section{font-weight:bold}",
            ".pglane-chart .tick,.pglane-chart .unit{fill:#57606a}",
            ".pglane-chart .grid{stroke:#e1e4e8;stroke-width:1}",
            ".pglane-chart .axis{stroke:#8c959f;stroke-width:1}",
            ".pglane-chart .range{stroke:#24292f;stroke-width:1.5}");

    private final StringBuilder svg = new StringBuilder();

    /** @param kind the chart's class besides {@code pglane-chart}, e.g. {@code bar-chart} */
    SvgCanvas(String kind, String title, double width, double height) {
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"pglane-chart ")
                .append(escape(kind))
                .append("\" width=\"")
                .append(px(width))
                .append("\" height=\"")
                .append(px(height))
                .append("\" viewBox=\"0 0 ")
                .append(px(width))
                .append(' ')
                .append(px(height))
                .append("\" role=\"img\" aria-label=\"")
                .append(escape(title))
                .append("\">\n<title>")
                .append(escape(title))
                .append("</title>\n<style>")
                .append(STYLE)
                .append("</style>\n");
        svg.append("<rect class=\"background\" x=\"0\" y=\"0\" width=\"")
                .append(px(width))
                .append("\" height=\"")
                .append(px(height))
                .append("\" fill=\"#ffffff\"/>\n");
        text("title", PAD, PAD + 16, "start", title);
    }

    /** The legend's rows: series side by side, as many as fit in {@code width}. */
    static List<List<Series>> legendRows(List<Series> series, double width) {
        List<List<Series>> rows = new ArrayList<>();
        double used = width;
        for (Series s : series) {
            double itemWidth = legendItemWidth(s);
            if (used + itemWidth > width) {
                rows.add(new ArrayList<>());
                used = 0;
            }
            rows.get(rows.size() - 1).add(s);
            used += itemWidth;
        }
        return rows;
    }

    private static double legendItemWidth(Series series) {
        return SWATCH + 6 + series.name().length() * CHAR_WIDTH + LEGEND_GAP;
    }

    /** Draws {@link #legendRows} from {@code top}, a row every {@link #LEGEND_ROW_HEIGHT}. */
    SvgCanvas legend(List<List<Series>> rows, double left, double top) {
        double y = top;
        for (List<Series> row : rows) {
            double x = left;
            for (Series series : row) {
                rect("swatch", x, y + 3, SWATCH, SWATCH, series, series.name());
                text("legend", x + SWATCH + 6, y + 13, "start", series.name());
                x += legendItemWidth(series);
            }
            y += LEGEND_ROW_HEIGHT;
        }
        return this;
    }

    /** @param anchor {@code start}, {@code middle} or {@code end} */
    SvgCanvas text(String cssClass, double x, double y, String anchor, String text) {
        svg.append("<text class=\"")
                .append(escape(cssClass))
                .append("\" x=\"")
                .append(px(x))
                .append("\" y=\"")
                .append(px(y))
                .append("\" text-anchor=\"")
                .append(escape(anchor))
                .append("\">")
                .append(escape(text))
                .append("</text>\n");
        return this;
    }

    /** Text that reads upwards, centred on ({@code x}, {@code y}): a vertical axis's unit. */
    SvgCanvas upwardText(String cssClass, double x, double y, String text) {
        svg.append("<text class=\"")
                .append(escape(cssClass))
                .append("\" transform=\"translate(")
                .append(px(x))
                .append(' ')
                .append(px(y))
                .append(") rotate(-90)\" text-anchor=\"middle\">")
                .append(escape(text))
                .append("</text>\n");
        return this;
    }

    /** A rectangle filled with {@code series}' colour; {@code tooltip} shows on hover. */
    SvgCanvas rect(String cssClass, double x, double y, double width, double height, Series series, String tooltip) {
        svg.append("<rect class=\"")
                .append(escape(cssClass))
                .append("\" data-series=\"")
                .append(escape(series.name()))
                .append("\" x=\"")
                .append(px(x))
                .append("\" y=\"")
                .append(px(y))
                .append("\" width=\"")
                .append(px(width))
                .append("\" height=\"")
                .append(px(height))
                .append("\" fill=\"")
                .append(escape(series.colour()))
                .append("\"><title>")
                .append(escape(tooltip))
                .append("</title></rect>\n");
        return this;
    }

    SvgCanvas line(String cssClass, double x1, double y1, double x2, double y2) {
        svg.append("<line class=\"")
                .append(escape(cssClass))
                .append("\" x1=\"")
                .append(px(x1))
                .append("\" y1=\"")
                .append(px(y1))
                .append("\" x2=\"")
                .append(px(x2))
                .append("\" y2=\"")
                .append(px(y2))
                .append("\"/>\n");
        return this;
    }

    /** A line through {@code points} ({x, y} pairs) in {@code series}' colour. */
    SvgCanvas polyline(String cssClass, Series series, List<double[]> points) {
        svg.append("<polyline class=\"")
                .append(escape(cssClass))
                .append("\" data-series=\"")
                .append(escape(series.name()))
                .append("\" fill=\"none\" stroke=\"")
                .append(escape(series.colour()))
                .append("\" stroke-width=\"1.5\" points=\"")
                .append(points.stream().map(p -> px(p[0]) + "," + px(p[1])).collect(Collectors.joining(" ")))
                .append("\"/>\n");
        return this;
    }

    SvgCanvas circle(String cssClass, double x, double y, double radius, Series series, String tooltip) {
        svg.append("<circle class=\"")
                .append(escape(cssClass))
                .append("\" data-series=\"")
                .append(escape(series.name()))
                .append("\" cx=\"")
                .append(px(x))
                .append("\" cy=\"")
                .append(px(y))
                .append("\" r=\"")
                .append(px(radius))
                .append("\" fill=\"")
                .append(escape(series.colour()))
                .append("\"><title>")
                .append(escape(tooltip))
                .append("</title></circle>\n");
        return this;
    }

    /** The finished document. */
    String close() {
        return svg + "</svg>\n";
    }
}
