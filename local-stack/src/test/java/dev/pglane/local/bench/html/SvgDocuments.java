package dev.pglane.local.bench.html;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/** The charts' SVG read back as XML, for the tests: parsing at all proves the markup well formed. */
final class SvgDocuments {
    private static final Pattern SVG = Pattern.compile("<svg .*?</svg>", Pattern.DOTALL);

    private SvgDocuments() {}

    static Element parse(String svg) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            Document document = factory.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
            return document.getDocumentElement();
        } catch (Exception e) {
            throw new AssertionError("not well-formed SVG: " + e.getMessage() + "\n" + svg, e);
        }
    }

    /** The SVG documents inline in an HTML page, in order. */
    static List<Element> inline(String html) {
        List<Element> charts = new ArrayList<>();
        Matcher matcher = SVG.matcher(html);
        while (matcher.find()) {
            charts.add(parse(matcher.group()));
        }
        return charts;
    }

    /** The {@code tag} elements of {@code cssClass} under {@code root}, in document order. */
    static List<Element> elements(Element root, String tag, String cssClass) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = root.getElementsByTagName(tag);
        for (int i = 0; i < nodes.getLength(); i++) {
            Element element = (Element) nodes.item(i);
            if (element.getAttribute("class").equals(cssClass)) {
                found.add(element);
            }
        }
        return found;
    }

    static double number(Element element, String attribute) {
        return Double.parseDouble(element.getAttribute(attribute));
    }

    /** The text of the elements' first child, e.g. a bar's tooltip or a label. */
    static List<String> texts(List<Element> elements) {
        return elements.stream().map(Element::getTextContent).toList();
    }
}
