package dev.pglane.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One scrape of a Prometheus endpoint in the text format, as Prometheus reads it: every sample line {@code
 * name{label="value",...} value}, the comment lines skipped.
 */
record PrometheusScrape(Map<String, Double> samples) {
    /** A sample line: the series (name and labels) and its value. */
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\\{.*})?) (\\S+)$");

    static PrometheusScrape of(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(20))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + url + " answered " + response.statusCode() + ": " + response.body());
        }
        return parse(response.body());
    }

    static PrometheusScrape parse(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!line.startsWith("#") && m.matches()) {
                samples.put(m.group(1), Double.valueOf(m.group(2)));
            }
        }
        return new PrometheusScrape(samples);
    }

    /** The metric names, without labels. */
    Set<String> names() {
        Set<String> names = new TreeSet<>();
        for (String series : samples.keySet()) {
            int brace = series.indexOf('{');
            names.add(brace < 0 ? series : series.substring(0, brace));
        }
        return names;
    }

    /**
     * The value of the one series of {@code name} labelled {@code connector="<connector>"}.
     *
     * @throws AssertionError when there is none, or several
     */
    double value(String name, String connector) {
        String label = "connector=\"" + connector + "\"";
        Double found = null;
        for (Map.Entry<String, Double> sample : samples.entrySet()) {
            String series = sample.getKey();
            if (series.startsWith(name + "{") && series.contains(label)) {
                if (found != null) {
                    throw new AssertionError("several series of " + name + " with " + label + ": " + samples.keySet());
                }
                found = sample.getValue();
            }
        }
        if (found == null) {
            throw new AssertionError("no series of " + name + " with " + label + " among " + names());
        }
        return found;
    }
}
