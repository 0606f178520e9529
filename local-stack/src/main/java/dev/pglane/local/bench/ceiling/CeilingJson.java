package dev.pglane.local.bench.ceiling;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A run's stage costs and projected ceilings in {@code report.json}: {@code "stages": [{"stage", "kind", "us_per_tx"},
 * ...]} and {@code "ceiling": [{"cores", "tx_per_s", "capped_by"}, ...]}, for each host size of
 * {@link CeilingProjection#CORES}.
 */
public final class CeilingJson {
    private CeilingJson() {}

    /** Adds {@code stages} and their ceilings to {@code entry}. */
    public static void put(ObjectNode entry, List<StageCost> stages) {
        var stageArray = entry.putArray("stages");
        for (StageCost stage : stages) {
            stageArray
                    .addObject()
                    .put("stage", stage.name())
                    .put("kind", stage.kind().label())
                    .put("us_per_tx", round(stage.microsPerTransaction()));
        }
        var ceilings = entry.putArray("ceiling");
        for (int cores : CeilingProjection.CORES) {
            Ceiling ceiling = CeilingProjection.project(stages, cores);
            ObjectNode node = ceilings.addObject().put("cores", cores);
            if (Double.isInfinite(ceiling.transactionsPerSecond())) {
                node.putNull("tx_per_s");
            } else {
                node.put("tx_per_s", Math.round(ceiling.transactionsPerSecond()));
            }
            node.put("capped_by", ceiling.cappedBy());
        }
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
