package dev.pglane.local.soak;

import java.time.Duration;
import java.util.Random;

/**
 * The faults the soak draws from, each something a production pipeline meets: operators restarting things,
 * servers going away, the network between a connector and its database breaking, sessions killed by an
 * administrator. Durations are drawn so that some faults end before the connectors notice and some outlast their
 * retries' first rounds.
 */
enum SoakFault {
    SOURCE_TASK_RESTART("source task restarted over REST", (stack, random) -> stack.restartSourceTask()),
    SINK_TASK_RESTART("sink task restarted over REST", (stack, random) -> stack.restartSinkTask()),
    CONNECTORS_RESTART(
            "both connectors restarted with their tasks over REST", (stack, random) -> stack.restartConnectors()),
    TARGET_DOWN(
            "target PostgreSQL stopped for a while, then started",
            (stack, random) -> stack.targetDownFor(seconds(random, 3, 20))),
    SOURCE_RESTART(
            "source PostgreSQL stopped for a while, then started",
            (stack, random) -> stack.sourceDownFor(seconds(random, 1, 10))),
    BROKER_RESTART("Kafka broker restarted", (stack, random) -> stack.restartBroker()),
    SINK_NETWORK_CUT(
            "network between the sink and the target cut for a while",
            (stack, random) -> stack.cutSinkNetworkFor(seconds(random, 1, 20))),
    SOURCE_NETWORK_CUT(
            "network between the source connector and PostgreSQL cut for a while",
            (stack, random) -> stack.cutSourceNetworkFor(seconds(random, 1, 20))),
    SINK_SESSIONS_KILLED(
            "the sink's sessions terminated on the target", (stack, random) -> stack.terminateSinkSessions()),
    WALSENDER_KILLED("the source connector's walsender terminated", (stack, random) -> stack.terminateWalSender());

    /** What a fault does to the stack; returns once the fault is over (not once the pipeline has healed). */
    @FunctionalInterface
    private interface Injection {
        void inject(SoakStack stack, Random random) throws Exception;
    }

    private final String description;
    private final Injection injection;

    SoakFault(String description, Injection injection) {
        this.description = description;
        this.injection = injection;
    }

    String description() {
        return description;
    }

    /** Injects the fault and, for one that lasts, ends it. */
    void inject(SoakStack stack, Random random) throws Exception {
        injection.inject(stack, random);
    }

    static SoakFault draw(Random random) {
        SoakFault[] all = values();
        return all[random.nextInt(all.length)];
    }

    private static Duration seconds(Random random, int min, int max) {
        return Duration.ofSeconds(min + random.nextInt(max - min + 1));
    }
}
