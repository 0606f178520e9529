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
        open("svg")
                .attr("xmlns", "http://www.w3.org/2000/svg")
                .attr("class", "pglane-chart " + kind)
                .attr("width", px(width))
                .attr("height", px(height))
                .attr("viewBox", "0 0 " + px(width) + " " + px(height))
                .attr("role", "img")
                .attr("aria-label", title);
        svg.append(">\n<title>")
                .append(escape(title))
                .append("</title>\n<style>")
                .append(STYLE)
                .append("</style>\n");
        open("rect")
                .attr("class", "background")
                .attr("x", "0")
                .attr("y", "0")
                .attr("width", px(width))
                .attr("height", px(height))
                .attr("fill", "#ffffff");
        svg.append("/>\n");
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
        open("text").attr("class", cssClass).attr("x", px(x)).attr("y", px(y)).attr("text-anchor", anchor);
        return content(text, "text");
    }

    /** Text that reads upwards, centred on ({@code x}, {@code y}): a vertical axis's unit. */
    SvgCanvas upwardText(String cssClass, double x, double y, String text) {
        open("text")
                .attr("class", cssClass)
                .attr("transform", "translate(" + px(x) + " " + px(y) + ") rotate(-90)")
                .attr("text-anchor", "middle");
        return content(text, "text");
    }

    /** A rectangle filled with {@code series}' colour; {@code tooltip} shows on hover. */
    SvgCanvas rect(String cssClass, double x, double y, double width, double height, Series series, String tooltip) {
        open("rect")
                .attr("class", cssClass)
                .attr("data-series", series.name())
                .attr("x", px(x))
                .attr("y", px(y))
                .attr("width", px(width))
                .attr("height", px(height))
                .attr("fill", series.colour());
        return titled(tooltip, "rect");
    }

    SvgCanvas line(String cssClass, double x1, double y1, double x2, double y2) {
        open("line")
                .attr("class", cssClass)
                .attr("x1", px(x1))
                .attr("y1", px(y1))
                .attr("x2", px(x2))
                .attr("y2", px(y2));
        svg.append("/>\n");
        return this;
    }

    /** A line through {@code points} ({x, y} pairs) in {@code series}' colour. */
    SvgCanvas polyline(String cssClass, Series series, List<double[]> points) {
        open("polyline")
                .attr("class", cssClass)
                .attr("data-series", series.name())
                .attr("fill", "none")
                .attr("stroke", series.colour())
                .attr("stroke-width", "1.5")
                .attr(
                        "points",
                        points.stream().map(p -> px(p[0]) + "," + px(p[1])).collect(Collectors.joining(" ")));
        svg.append("/>\n");
        return this;
    }

    SvgCanvas circle(String cssClass, double x, double y, double radius, Series series, String tooltip) {
        open("circle")
                .attr("class", cssClass)
                .attr("data-series", series.name())
                .attr("cx", px(x))
                .attr("cy", px(y))
                .attr("r", px(radius))
                .attr("fill", series.colour());
        return titled(tooltip, "circle");
    }

    /** Starts {@code <tag}; its attributes follow with {@link #attr}. */
    private SvgCanvas open(String tag) {
        svg.append('<').append(tag);
        return this;
    }

    /** An attribute of the tag just opened, its value escaped. */
    private SvgCanvas attr(String name, String value) {
        svg.append(' ').append(name).append("=\"").append(escape(value)).append('"');
        return this;
    }

    /** Ends the open tag with {@code text} as its content. */
    private SvgCanvas content(String text, String tag) {
        svg.append('>').append(escape(text)).append("</").append(tag).append(">\n");
        return this;
    }

    /** Ends the open tag with a {@code <title>} child, which a browser shows on hover. */
    private SvgCanvas titled(String tooltip, String tag) {
        svg.append("><title>")
                .append(escape(tooltip))
                .append("</title></")
                .append(tag)
                .append(">\n");
        return this;
    }

    /** The finished document. */
    String close() {
        return svg + "</svg>\n";
    }
}
