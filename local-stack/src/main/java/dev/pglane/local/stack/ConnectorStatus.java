package dev.pglane.local.stack;

import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code GET /connectors/{name}/status}, reduced to what the stack and the tests look at.
 *
 * @param trace the stack trace Connect reports for a failed connector, or null
 */
public record ConnectorStatus(String name, String state, String trace, List<Task> tasks) {
    public static final String RUNNING = "RUNNING";
    public static final String FAILED = "FAILED";

    /**
     * One task's state; {@code trace} is null unless it failed.
     *
     * @param workerId the worker that last reported it, {@code host:port} of its REST listener
     */
    public record Task(int id, String state, String trace, String workerId) {}

    /** The connector and all its tasks (at least one) run. */
    public boolean isRunning() {
        return RUNNING.equals(state) && !tasks.isEmpty() && tasks.stream().allMatch(t -> RUNNING.equals(t.state()));
    }

    /** The connector or one of its tasks has failed. */
    public boolean hasFailed() {
        return FAILED.equals(state) || tasks.stream().anyMatch(t -> FAILED.equals(t.state()));
    }

    /** Connect has decided: the connector failed, or it runs and each of its tasks (at least one) runs or failed. */
    public boolean isSettled() {
        if (FAILED.equals(state)) {
            return true;
        }
        return RUNNING.equals(state)
                && !tasks.isEmpty()
                && tasks.stream().allMatch(t -> RUNNING.equals(t.state()) || FAILED.equals(t.state()));
    }

    /** One line per connector/task, with the first line of any failure's trace. */
    public String describe() {
        StringBuilder text =
                new StringBuilder(name).append(": connector ").append(state).append(firstLine(trace));
        if (tasks.isEmpty()) {
            text.append(", no tasks");
        }
        text.append(tasks.stream()
                .map(t -> "\n  task " + t.id() + " " + t.state() + firstLine(t.trace()))
                .collect(Collectors.joining()));
        return text.toString();
    }

    private static String firstLine(String trace) {
        return trace == null || trace.isBlank()
                ? ""
                : " - " + trace.lines().findFirst().orElse("");
    }
}
