package dev.pglane.local.bench.html;

import static dev.pglane.local.bench.html.Markup.escape;

/**
 * {@code report.html}: a page that stands alone (its styles and charts inline, no script, nothing fetched: it opens
 * from a CI artifact or an e-mail as it does from disk), of sections of charts with captions. Every text is escaped
 * here; the charts come as finished SVG documents.
 */
final class BenchPage {
    private static final String STYLE = String.join(
            "\n",
            "body{margin:24px;background:#f3f4f6;color:#1f2328;max-width:1000px;",
            "  font:14px/1.45 system-ui,-apple-system,'Segoe UI','DejaVu Sans',Arial,sans-serif}",
            "h1{font-size:22px;margin:0 0 8px}",
            "h2{font-size:18px;margin:32px 0 12px}",
            "figure{margin:0 0 20px}",
            "figure svg{display:block;max-width:100%;height:auto;border:1px solid #d0d7de}",
            "figcaption,p.note{color:#57606a;margin:6px 0 0}",
            "p.note{margin-bottom:20px}");

    private final String title;
    private final StringBuilder body = new StringBuilder();

    BenchPage(String title, String introduction) {
        this.title = title;
        body.append("<h1>").append(escape(title)).append("</h1>\n");
        body.append("<p>").append(escape(introduction)).append("</p>\n");
    }

    BenchPage section(String heading) {
        body.append("<h2>").append(escape(heading)).append("</h2>\n");
        return this;
    }

    /** @param svg a chart's finished SVG document */
    BenchPage figure(String svg, String caption) {
        body.append("<figure>\n")
                .append(svg)
                .append("<figcaption>")
                .append(escape(caption))
                .append("</figcaption>\n</figure>\n");
        return this;
    }

    /** A remark in place of a figure that cannot be drawn. */
    BenchPage note(String text) {
        body.append("<p class=\"note\">").append(escape(text)).append("</p>\n");
        return this;
    }

    String render() {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escape(title)
                + "</title>\n<style>\n" + STYLE + "\n</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
    }
}
