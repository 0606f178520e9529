package dev.pglane.local.bench.html;

import static dev.pglane.local.bench.html.SvgDocuments.elements;
import static dev.pglane.local.bench.html.SvgDocuments.number;
import static dev.pglane.local.bench.html.SvgDocuments.parse;
import static dev.pglane.local.bench.html.SvgDocuments.texts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Element;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SvgLineChartTest {
    private static List<SvgLineChart.Point> points(double... xy) {
        List<SvgLineChart.Point> points = new ArrayList<>();
        for (int i = 0; i < xy.length; i += 2) {
            points.add(new SvgLineChart.Point(xy[i], xy[i + 1]));
        }
        return points;
    }

    @Test
    void aLinePerSeriesAndAPointPerReadingPlacedByItsValues() {
        Element svg = parse(new SvgLineChart("lag", "s since the load started", "lag, s")
                .line(Series.nth("run 1", 0), points(0, 0, 10, 1, 20, 2))
                .line(Series.nth("run 2", 1), points(5, 4, 15, 3))
                .render());

        List<Element> lines = elements(svg, "polyline", "line");
        assertEquals(2, lines.size());
        assertEquals(3, lines.get(0).getAttribute("points").split(" ").length);
        List<Element> points = elements(svg, "circle", "point");
        assertEquals(5, points.size());
        assertEquals(
                List.of("run 1", "run 1", "run 1", "run 2", "run 2"),
                points.stream().map(p -> p.getAttribute("data-series")).toList());
        // run 1 rises 1 a step: its points are equally spaced across and up
        double dx = number(points.get(1), "cx") - number(points.get(0), "cx");
        double dy = number(points.get(0), "cy") - number(points.get(1), "cy");
        assertEquals(dx, number(points.get(2), "cx") - number(points.get(1), "cx"), 0.15);
        assertEquals(dy, number(points.get(1), "cy") - number(points.get(2), "cy"), 0.15);
        // a lag of 4 is four times as high above the axis as a lag of 1
        double axis = number(points.get(0), "cy");
        assertEquals(4 * (axis - number(points.get(1), "cy")), axis - number(points.get(3), "cy"), 0.3);
        assertEquals(
                List.of(Series.nth("", 0).colour(), Series.nth("", 1).colour()),
                lines.stream().map(l -> l.getAttribute("stroke")).toList());
    }

    @Test
    void seriesNamesAndUnitsAreEscaped() {
        String rendered = new SvgLineChart("<lag>", "x & y", "<y>")
                .line(Series.nth("run <1> & \"co\"", 0), points(1, 1))
                .render();

        assertFalse(rendered.contains("<1>"), rendered);
        Element svg = parse(rendered);
        assertEquals(List.of("run <1> & \"co\""), texts(elements(svg, "text", "legend")));
        assertEquals(List.of("x & y", "<y>"), texts(elements(svg, "text", "unit")));
    }
}
