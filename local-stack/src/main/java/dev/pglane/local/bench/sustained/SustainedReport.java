package dev.pglane.local.bench.sustained;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pglane.local.bench.Spread;
import dev.pglane.local.bench.SuiteReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The sustained-rate stage's runs and summaries: {@code sustained-report.json} (every step of every run, the
 * summaries, the rule), {@code sustained-report.md} ({@link SustainedMarkdown}) and the {@code sustained} section of
 * {@code report.json}, which replaces an earlier one and leaves the other stages' entries as they were.
 */
public final class SustainedReport {
    public static final String JSON_FILE = "sustained-report.json";
    public static final String MARKDOWN_FILE = "sustained-report.md";
    /** The key of this stage's section in report.json. */
    public static final String SECTION = "sustained";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final String environment;
    private final BoundedRule rule;
    private final List<SustainedSystem> systems;
    private final List<Integer> rates;
    private final double stepSeconds;
    private final List<SystemRun> runs = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    /** @param systems in the order the report lists them */
    public SustainedReport(
            String environment,
            BoundedRule rule,
            List<SustainedSystem> systems,
            List<Integer> rates,
            double stepSeconds) {
        this.environment = environment;
        this.rule = rule;
        this.systems = List.copyOf(systems);
        this.rates = List.copyOf(rates);
        this.stepSeconds = stepSeconds;
    }

    public void add(SystemRun run) {
        runs.add(run);
    }

    /** A run that failed: recorded, not measured. */
    public void fail(SustainedSystem system, int run, String reason) {
        failures.add(system.label() + ", run " + run + ": " + reason);
    }

    /** A failed run, or a target that differs from the source. */
    public boolean hasFailures() {
        return !failures.isEmpty() || runs.stream().anyMatch(r -> Boolean.FALSE.equals(r.equal()));
    }

    String environment() {
        return environment;
    }

    BoundedRule rule() {
        return rule;
    }

    double stepSeconds() {
        return stepSeconds;
    }

    List<SystemRun> runs() {
        return List.copyOf(runs);
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    /** Each measured system's summary, in the report's order. */
    public List<SustainedSummary> summaries() {
        List<SustainedSummary> summaries = new ArrayList<>();
        for (SustainedSystem system : systems) {
            List<SystemRun> own =
                    runs.stream().filter(r -> r.system() == system).toList();
            if (!own.isEmpty()) {
                summaries.add(SustainedSummary.of(system, own, rates));
            }
        }
        return summaries;
    }

    /** Writes the JSON and markdown reports and merges the section into report.json; returns the markdown. */
    public String write(Path dir) throws IOException {
        Files.createDirectories(dir);
        ObjectNode json = toJson();
        JSON.writeValue(dir.resolve(JSON_FILE).toFile(), json);
        mergeInto(dir, json);
        String markdown = SustainedMarkdown.render(this);
        Files.writeString(dir.resolve(MARKDOWN_FILE), markdown);
        return markdown;
    }

    /** The section in report.json, in place of an earlier one; every other key stays as it was. */
    private static void mergeInto(Path dir, ObjectNode section) throws IOException {
        Path file = dir.resolve(SuiteReport.FILE);
        ObjectNode root = Files.exists(file) ? (ObjectNode) JSON.readTree(file.toFile()) : JSON.createObjectNode();
        if (!root.has("runs")) {
            root.putArray("runs");
        }
        root.set(SECTION, section);
        JSON.writeValue(file.toFile(), root);
    }

    ObjectNode toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("environment", environment);
        root.put("bounded_rule", rule.describe());
        root.put("headline_p99_s", SustainedSummary.HEADLINE_P99_SECONDS);
        root.put("step_s", stepSeconds);
        ArrayNode summaries = root.putArray("systems");
        for (SustainedSummary summary : summaries()) {
            summaries.add(summaryJson(summary));
        }
        ArrayNode steps = root.putArray("steps");
        for (SystemRun run : runs) {
            for (StepResult step : run.steps()) {
                steps.add(stepJson(run, step));
            }
        }
        ArrayNode checks = root.putArray("checks");
        for (SystemRun run : runs) {
            ObjectNode check = checks.addObject();
            check.put("system", run.system().option());
            check.put("run", run.run());
            check.put("stop", run.stop().name().toLowerCase(java.util.Locale.ROOT));
            if (run.equal() == null) {
                check.putNull("equal");
            } else {
                check.put("equal", run.equal());
            }
            check.put("check", run.check());
        }
        ArrayNode failed = root.putArray("failures");
        failures.forEach(failed::add);
        return root;
    }

    private static ObjectNode summaryJson(SustainedSummary summary) {
        ObjectNode node = JSON.createObjectNode();
        node.put("system", summary.system().option());
        node.put("label", summary.system().label());
        node.put("runs", summary.runs());
        spread(node, "highest_rate_p99_within_headline_tx_per_s", summary.highestRate());
        spread(node, "highest_bounded_rate_tx_per_s", summary.highestBoundedRate());
        ArrayNode steps = node.putArray("steps");
        for (SustainedSummary.Step step : summary.steps()) {
            ObjectNode s = steps.addObject();
            s.put("rate_asked", step.rateAsked());
            s.put("runs", step.runs());
            s.put("bounded_runs", step.boundedRuns());
            s.put("bounded", step.bounded());
            s.put("meets_headline_runs", step.meetingRuns());
            spread(s, "rate_achieved", step.rateAchieved());
            spread(s, "lag_p50_s", step.p50());
            spread(s, "lag_p99_s", step.p99());
            spread(s, "lag_max_s", step.max());
        }
        return node;
    }

    private static ObjectNode stepJson(SystemRun run, StepResult step) {
        ObjectNode node = JSON.createObjectNode();
        node.put("system", run.system().option());
        node.put("run", run.run());
        node.put("rate_asked", step.rateAsked());
        node.put("rate_achieved", round(step.rateAchieved()));
        node.put("seconds", round(step.stepSeconds()));
        StepLag lag = step.lag();
        node.put("probes", lag.probes());
        node.put("unseen", lag.unseen());
        node.put("lag_p50_s", round(lag.p50Seconds()));
        node.put("lag_p99_s", round(lag.p99Seconds()));
        node.put("lag_max_s", round(lag.maxSeconds()));
        putNumber(node, "lag_middle_third_mean_s", lag.middleThirdMean());
        putNumber(node, "lag_last_third_mean_s", lag.lastThirdMean());
        node.put("bounded", lag.bounded());
        node.put("verdict", lag.verdict());
        return node;
    }

    private static void spread(ObjectNode node, String name, Spread spread) {
        if (spread == null) {
            node.putNull(name);
            return;
        }
        ObjectNode s = node.putObject(name);
        s.put("median", round(spread.median()));
        s.put("min", round(spread.min()));
        s.put("max", round(spread.max()));
    }

    private static void putNumber(ObjectNode node, String name, double value) {
        if (Double.isNaN(value)) {
            node.putNull(name);
        } else {
            node.put(name, round(value));
        }
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
