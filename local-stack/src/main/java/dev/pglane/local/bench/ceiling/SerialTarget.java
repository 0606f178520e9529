package dev.pglane.local.bench.ceiling;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The heaviest serial stage over several measured columns (systems or configurations), against issue #36's target of
 * {@link CeilingProjection#SERIAL_TARGET_MICROS} µs per pgbench transaction for each serial stage.
 *
 * @param column the system or configuration it was measured in
 */
public record SerialTarget(String column, StageCost stage) {
    /** The serial stage with the most CPU per transaction in any column; null when none has a serial stage. */
    public static SerialTarget heaviest(Map<String, List<StageCost>> columns) {
        SerialTarget heaviest = null;
        for (Map.Entry<String, List<StageCost>> column : columns.entrySet()) {
            for (StageCost stage : column.getValue()) {
                if (stage.kind() == StageCost.Kind.SERIAL
                        && (heaviest == null
                                || stage.microsPerTransaction()
                                        > heaviest.stage().microsPerTransaction())) {
                    heaviest = new SerialTarget(column.getKey(), stage);
                }
            }
        }
        return heaviest;
    }

    public boolean met() {
        return stage.microsPerTransaction() <= CeilingProjection.SERIAL_TARGET_MICROS;
    }

    /** E.g. {@code heaviest: sink task thread (...), 44.0 µs (pglane, 1 worker)}. */
    public String describe() {
        return String.format(
                Locale.ROOT, "heaviest: %s, %.1f µs (%s)", stage.name(), stage.microsPerTransaction(), column);
    }
}
