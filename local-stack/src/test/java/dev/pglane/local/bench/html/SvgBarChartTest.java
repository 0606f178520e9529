package dev.pglane.local.bench.html;

import static dev.pglane.local.bench.html.SvgDocuments.elements;
import static dev.pglane.local.bench.html.SvgDocuments.number;
import static dev.pglane.local.bench.html.SvgDocuments.parse;
import static dev.pglane.local.bench.html.SvgDocuments.texts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.bench.Spread;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Element;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SvgBarChartTest {
    private static final Series PGLANE = new Series("pglane", "#0072B2");
    private static final Series POSTGRES = new Series("PostgreSQL", "#009E73");

    private static Spread one(double value) {
        return new Spread(value, value, value);
    }

    @Test
    void aBarPerValueEachAsLongAsItsValueFromOneAxis() {
        Element svg = parse(new SvgBarChart("throughput", "tx/s")
                .section("source")
                .bar("pg_recvlogical", POSTGRES, one(20_000))
                .bar("pglane", PGLANE, one(5_000))
                .section("sink")
                .bar("pglane, 2 workers", PGLANE, one(10_000))
                .render());

        List<Element> bars = elements(svg, "rect", "bar");
        assertEquals(3, bars.size());
        double[] values = {20_000, 5_000, 10_000};
        double perUnit = number(bars.get(0), "width") / values[0];
        for (int i = 0; i < bars.size(); i++) {
            assertEquals(number(bars.get(0), "x"), number(bars.get(i), "x"), "every bar starts at the axis");
            assertEquals(values[i] * perUnit, number(bars.get(i), "width"), 0.15, "bar " + i);
        }
        assertEquals(
                List.of("#009E73", "#0072B2", "#0072B2"),
                bars.stream().map(b -> b.getAttribute("fill")).toList());
        assertEquals(List.of("source", "sink"), texts(elements(svg, "text", "section")));
        assertEquals(List.of("PostgreSQL", "pglane"), texts(elements(svg, "text", "legend")), "each series once");
        assertEquals(List.of("20,000", "5,000", "10,000"), texts(elements(svg, "text", "value")));
    }

    @Test
    void aStackedBarLaysItsPartsEndToEnd() {
        Element svg = parse(new SvgBarChart("CPU", "CPU seconds per 1,000 transactions")
                .stackedBar(
                        "pglane",
                        List.of(new SvgBarChart.Segment(POSTGRES, 1.0), new SvgBarChart.Segment(PGLANE, 2.5)),
                        one(3.5))
                .bar("subscriber", POSTGRES, one(7.0))
                .render());

        List<Element> bars = elements(svg, "rect", "bar");
        assertEquals(3, bars.size());
        Element first = bars.get(0);
        Element second = bars.get(1);
        assertEquals(number(first, "x") + number(first, "width"), number(second, "x"), 0.15);
        assertEquals(2.5, number(second, "width") / number(first, "width"), 0.01);
        double stacked = number(first, "width") + number(second, "width");
        assertEquals(number(bars.get(2), "width") / 2, stacked, 0.2, "3.5 is half of 7");
        assertEquals("3.5", elements(svg, "text", "value").get(0).getTextContent());
    }

    @Test
    void theLegendFollowsTheOrderGivenNotTheFirstBars() {
        Series third = new Series("third", "#CC79A7");
        Element svg = parse(new SvgBarChart("CPU", "s")
                .legendOrder(List.of(POSTGRES, PGLANE))
                .stackedBar("a", List.of(new SvgBarChart.Segment(third, 1), new SvgBarChart.Segment(PGLANE, 1)), one(2))
                .stackedBar("b", List.of(new SvgBarChart.Segment(POSTGRES, 1)), one(1))
                .render());

        assertEquals(List.of("PostgreSQL", "pglane", "third"), texts(elements(svg, "text", "legend")));
    }

    @Test
    void aWhiskerSpansTheSmallestToTheLargestRunWhereTheRunsDiffer() {
        Element svg = parse(new SvgBarChart("throughput", "tx/s")
                .bar("three runs", PGLANE, new Spread(200, 100, 300))
                .bar("one run", PGLANE, one(300))
                .render());

        List<Element> bars = elements(svg, "rect", "bar");
        double x0 = number(bars.get(0), "x");
        double perUnit = number(bars.get(0), "width") / 200;
        List<Element> whisker = elements(svg, "line", "range");
        assertEquals(3, whisker.size(), "the span and its two ends, for the bar with three runs only");
        assertEquals(x0 + 100 * perUnit, number(whisker.get(0), "x1"), 0.15);
        assertEquals(x0 + 300 * perUnit, number(whisker.get(0), "x2"), 0.15);
        assertEquals(List.of("200 (100–300)", "300"), texts(elements(svg, "text", "value")));
    }

    @Test
    void everyTextIsEscaped() {
        String label = "<script>alert(\"x\")</script> & 'more'";
        String rendered = new SvgBarChart("a <b> & \"c\"", "rows & <s>")
                .section("<section>")
                .bar(label, new Series("x</title><script>", "#000000"), one(1))
                .render();

        assertFalse(rendered.contains("<script>"), rendered);
        assertFalse(rendered.contains("<b>"), rendered);
        Element svg = parse(rendered);
        assertEquals(List.of(label), texts(elements(svg, "text", "label")));
        assertEquals(List.of("<section>"), texts(elements(svg, "text", "section")));
        assertEquals(List.of("a <b> & \"c\""), texts(elements(svg, "text", "title")));
        assertEquals(List.of("rows & <s>"), texts(elements(svg, "text", "unit")));
        assertEquals("x</title><script>", elements(svg, "rect", "bar").get(0).getAttribute("data-series"));
    }

    @Test
    void aLongLabelWrapsAtSpacesAndItsBarStaysInItsRow() {
        assertEquals(List.of("one two", "three"), SvgBarChart.wrap("one two three", 8));
        assertEquals(List.of("unbreakable-word", "x"), SvgBarChart.wrap("unbreakable-word x", 8));

        Element svg = parse(new SvgBarChart("t", "u")
                .bar("COPY TO STDOUT piped into COPY FROM STDIN (one pipe per table) (pipes 1)", POSTGRES, one(1))
                .bar("next", PGLANE, one(1))
                .render());
        List<Element> labels = elements(svg, "text", "label");
        assertEquals(3, labels.size(), "two lines, then the next bar's one");
        List<Element> bars = elements(svg, "rect", "bar");
        assertTrue(
                number(bars.get(1), "y") >= number(labels.get(1), "y"), "the next bar starts below the wrapped label");
    }
}
