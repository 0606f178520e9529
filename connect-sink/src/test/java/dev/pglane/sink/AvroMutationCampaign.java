package dev.pglane.sink;

import dev.pglane.sink.apply.TargetServer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sink's mutation test over Avro records a real source wrote through a real registry, for integration-tests'
 * {@code AvroInputMutationIT}, which captures them live (schema ids live in the registry) and calls {@link #run}
 * through a class loader of the sink's plugin and this test-jar: the connectors never sit on that module's class
 * path. Only JDK types cross that boundary.
 */
public final class AvroMutationCampaign {
    /** The entry of {@link #run}'s answer that counts the rows of the source's last committed state. */
    public static final String FINAL_ROWS = "rows of the source's last state";

    private AvroMutationCampaign() {}

    /**
     * Runs the unspoiled capture and then {@code count} mutations of it (seed {@code seed}, from the {@code from}th),
     * each through a fresh sink task against an embedded target, judged by {@link MutationJudge}.
     *
     * @param capture the records, in {@link CapturedStream}'s format
     * @param tables the tables of the capture, schema-qualified
     * @param format the sink's payload settings (payload.format=avro and its payload.avro.* registry settings)
     * @return how many mutations ended in each outcome class, and {@link #FINAL_ROWS}
     * @throws AssertionError for an outcome outside the classes
     */
    public static Map<String, Integer> run(
            Path capture, List<String> tables, Map<String, String> format, long seed, int count, int from)
            throws Exception {
        CapturedStream captured = CapturedStream.load(capture);
        TargetServer target = new TargetServer();
        target.beforeAll(null);
        try {
            target.execute(captured.ddl().toArray(String[]::new));
            MutationRound round = new MutationRound(target, captured, tables, format);
            try (MutationJudge judge = MutationJudge.learn(captured, new AvroCodec(format), round)) {
                Map<String, Integer> outcomes = new LinkedHashMap<>();
                outcomes.put(FINAL_ROWS, judge.finalRows().size());
                outcomes.putAll(judge.run(seed, count, from));
                return outcomes;
            }
        } finally {
            target.afterAll(null);
        }
    }
}
