package dev.pglane.source.validate;

import dev.pglane.connect.validate.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Connect settings that would let the slot move past a change Kafka never stored. The source confirms a
 * transaction to the slot once Connect acknowledged its END and every record before it; Connect acknowledges a
 * record also when it did not send it: under {@code errors.tolerance=all} a record whose conversion or send failed
 * (one larger than {@code max.request.size}, say) is skipped and counted as done, and a transformation may drop a
 * record or send it elsewhere. Either would lose the change for good, and leave a consumer waiting for a record
 * its END counts. So both are refused, by {@code validate()} and again when a task starts.
 */
public final class DeliveryRules {
    static final String ERRORS_TOLERANCE = "errors.tolerance";
    static final String TRANSFORMS = "transforms";

    private DeliveryRules() {}

    /** What in {@code props} (a connector's whole config) the source cannot run with; empty if nothing. */
    public static List<ConfigProblem> problems(Map<String, String> props) {
        List<ConfigProblem> problems = new ArrayList<>();
        String tolerance = props.getOrDefault(ERRORS_TOLERANCE, "none").trim();
        if (!tolerance.toLowerCase(Locale.ROOT).equals("none")) {
            problems.add(new ConfigProblem(
                    ERRORS_TOLERANCE,
                    ERRORS_TOLERANCE + "=" + tolerance + " would let Connect skip a record it could not convert or"
                            + " send and count it as delivered, so the slot would move past a change Kafka never"
                            + " stored; the pglane source needs " + ERRORS_TOLERANCE + "=none, and a failed send"
                            + " stops the task with the slot behind it"));
        }
        String transforms = props.getOrDefault(TRANSFORMS, "").trim();
        if (!transforms.isEmpty()) {
            problems.add(new ConfigProblem(
                    TRANSFORMS,
                    "transformations (" + transforms + ") may drop records or move them to other topics, which"
                            + " would lose changes and break the transaction counts of the END markers; the pglane"
                            + " source runs without them (transform in the consumers' connectors instead)"));
        }
        return problems;
    }
}
