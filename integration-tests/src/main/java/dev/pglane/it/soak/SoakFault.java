package dev.pglane.it.soak;

import java.time.Duration;
import java.util.Random;

/**
 * The faults the soak draws from, each something a production pipeline meets: operators restarting things,
 * servers going away, the network between a connector and its database breaking, sessions killed by an
 * administrator. Durations are drawn so that some faults end before the connectors notice and some outlast their
 * retries' first rounds.
 */
enum SoakFault {
    SOURCE_TASK_RESTART("source task restarted over REST") {
        @Override
        void inject(SoakStack stack, Random random) {
            stack.restartSourceTask();
        }
    },
    SINK_TASK_RESTART("sink task restarted over REST") {
        @Override
        void inject(SoakStack stack, Random random) {
            stack.restartSinkTask();
        }
    },
    CONNECTORS_RESTART("both connectors restarted with their tasks over REST") {
        @Override
        void inject(SoakStack stack, Random random) {
            stack.restartConnectors();
        }
    },
    TARGET_DOWN("target PostgreSQL stopped for a while, then started") {
        @Override
        void inject(SoakStack stack, Random random) throws Exception {
            stack.targetDownFor(seconds(random, 3, 20));
        }
    },
    SOURCE_RESTART("source PostgreSQL stopped for a while, then started") {
        @Override
        void inject(SoakStack stack, Random random) throws Exception {
            stack.sourceDownFor(seconds(random, 1, 10));
        }
    },
    BROKER_RESTART("Kafka broker restarted") {
        @Override
        void inject(SoakStack stack, Random random) {
            stack.restartBroker();
        }
    },
    SINK_NETWORK_CUT("network between the sink and the target cut for a while") {
        @Override
        void inject(SoakStack stack, Random random) throws Exception {
            stack.cutSinkNetworkFor(seconds(random, 1, 20));
        }
    },
    SOURCE_NETWORK_CUT("network between the source connector and PostgreSQL cut for a while") {
        @Override
        void inject(SoakStack stack, Random random) throws Exception {
            stack.cutSourceNetworkFor(seconds(random, 1, 20));
        }
    },
    SINK_SESSIONS_KILLED("the sink's sessions terminated on the target") {
        @Override
        void inject(SoakStack stack, Random random) throws Exception {
            stack.terminateSinkSessions();
        }
    },
    WALSENDER_KILLED("the source connector's walsender terminated") {
        @Override
        void inject(SoakStack stack, Random random) throws Exception {
            stack.terminateWalSender();
        }
    };

    private final String description;

    SoakFault(String description) {
        this.description = description;
    }

    String description() {
        return description;
    }

    /** Injects the fault and, for one that lasts, ends it; returns once the fault is over (not once healed). */
    abstract void inject(SoakStack stack, Random random) throws Exception;

    static SoakFault draw(Random random) {
        SoakFault[] all = values();
        return all[random.nextInt(all.length)];
    }

    private static Duration seconds(Random random, int min, int max) {
        return Duration.ofSeconds(min + random.nextInt(max - min + 1));
    }
}
