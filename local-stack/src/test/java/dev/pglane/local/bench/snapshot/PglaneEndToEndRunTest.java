package dev.pglane.local.bench.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.local.bench.sustained.ProbeSample;
import dev.pglane.local.bench.sustained.StepLag;
import java.util.List;
import org.junit.jupiter.api.Test;

class PglaneEndToEndRunTest {
    @Test
    void theStreamsLagCountsFromTheFirstProbeRowTheTargetShowed() {
        // the first two rows were committed while the connector started: not the stream's lag
        List<ProbeSample> samples = List.of(
                new ProbeSample(0.0, 9.0, false),
                new ProbeSample(0.1, 8.9, false),
                new ProbeSample(0.2, 0.3, true),
                new ProbeSample(0.3, 0.2, true),
                new ProbeSample(0.4, 0.5, false));

        StepLag lag = PglaneEndToEndRun.streamLag(samples);

        assertEquals(3, lag.probes());
        assertEquals(1, lag.unseen());
        assertEquals(0.5, lag.maxSeconds(), 1e-3);
    }

    @Test
    void noProbeRowSeenGivesNoLag() {
        StepLag lag = PglaneEndToEndRun.streamLag(List.of(new ProbeSample(0.0, 3.0, false)));

        assertEquals(0, lag.probes());
    }
}
