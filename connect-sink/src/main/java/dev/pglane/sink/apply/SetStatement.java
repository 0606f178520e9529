package dev.pglane.sink.apply;

import static dev.pglane.sink.target.Identifiers.qualified;
import static dev.pglane.sink.target.Identifiers.quote;

import dev.pglane.sink.target.TargetColumn;
import dev.pglane.sink.target.TargetTable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Field;

/**
 * One UPDATE or DELETE for many rows of a table with a key: the rows' values as a {@code VALUES} list joined to the
 * table by its key, so that the target plans and starts one statement where it would run one per row. Each row
 * binds its key ({@code m0, m1, ...}) and, for an UPDATE, its written columns ({@code w0, w1, ...}), every value
 * cast to its column's server-formatted type. The list is padded with rows of nulls up to a power of two, so a
 * few statement texts serve every batch size: a null key matches no row. The rows of one statement have distinct
 * keys, so a statement that fits changes exactly as many rows as it carries.
 */
final class SetStatement {
    /** PostgreSQL's protocol carries the parameter count as a 16-bit number. */
    private static final int MAX_BIND_PARAMETERS = 65_535;

    private final String head;
    private final String tuple;
    private final String tail;
    private final int columns;
    /** Most rows of one statement, padding included: a power of two. */
    final int maxRows;

    private final Map<Integer, String> texts = new ConcurrentHashMap<>();

    private SetStatement(String head, String tuple, String tail, int columns, int batchMaxRows) {
        this.head = head;
        this.tuple = tuple;
        this.tail = tail;
        this.columns = columns;
        this.maxRows = Integer.highestOneBit(Math.max(2, Math.min(batchMaxRows, MAX_BIND_PARAMETERS / columns)));
    }

    /** The set form of an UPDATE by key: {@code UPDATE t SET c = v.w0 FROM (VALUES ...) v WHERE t.k = v.m0}. */
    static SetStatement update(TargetTable target, List<Field> match, List<Field> written, int batchMaxRows) {
        String assignments = IntStream.range(0, written.size())
                .mapToObj(i -> quote(written.get(i).name()) + " = pglane_v.w" + i)
                .collect(Collectors.joining(", "));
        return new SetStatement(
                "UPDATE " + qualified(target.name()) + " AS pglane_t SET " + assignments + " FROM (VALUES ",
                tuple(target, match, written),
                ") AS pglane_v(" + aliases(match, written) + ") WHERE " + joinOn(target, match),
                match.size() + written.size(),
                batchMaxRows);
    }

    /** The set form of a DELETE by key: {@code DELETE FROM t USING (VALUES ...) v WHERE t.k = v.m0}. */
    static SetStatement delete(TargetTable target, List<Field> match, int batchMaxRows) {
        return new SetStatement(
                "DELETE FROM " + qualified(target.name()) + " AS pglane_t USING (VALUES ",
                tuple(target, match, List.of()),
                ") AS pglane_v(" + aliases(match, List.of()) + ") WHERE " + joinOn(target, match),
                match.size(),
                batchMaxRows);
    }

    /**
     * The rows of an UPDATE's set statement whose old key the target lacks, inserted after it with the same bound
     * rows: {@code INSERT INTO t (c) SELECT v.w0 FROM (VALUES ...) v WHERE v.m0 IS NOT NULL AND NOT EXISTS (SELECT 1
     * FROM t WHERE t.k = v.m0)} and {@code conflictClause} (an upsert by the target's key). A row the UPDATE changed
     * in place has its key and is left out; a padding row has a null key and is left out too.
     */
    static SetStatement insertMissing(
            TargetTable target, List<Field> match, List<Field> written, String conflictClause, int batchMaxRows) {
        String columns = written.stream().map(f -> quote(f.name())).collect(Collectors.joining(", "));
        String selected = IntStream.range(0, written.size())
                .mapToObj(i -> "pglane_v.w" + i)
                .collect(Collectors.joining(", "));
        return new SetStatement(
                "INSERT INTO " + qualified(target.name()) + " (" + columns + ") SELECT " + selected + " FROM (VALUES ",
                tuple(target, match, written),
                ") AS pglane_v(" + aliases(match, written) + ") WHERE pglane_v.m0 IS NOT NULL AND NOT EXISTS (SELECT 1"
                        + " FROM " + qualified(target.name()) + " AS pglane_t WHERE " + joinOn(target, match) + ")"
                        + conflictClause,
                match.size() + written.size(),
                batchMaxRows);
    }

    /** The rows a batch of {@code records} rows is padded to. */
    int paddedRows(int records) {
        return Math.max(2, Integer.highestOneBit(records - 1) << 1);
    }

    /** Bound values of a statement for {@code records} rows, padding included. */
    int values(int records) {
        return paddedRows(records) * columns;
    }

    /** The statement for {@code records} rows (2 to {@link #maxRows}). */
    String text(int records) {
        return texts.computeIfAbsent(paddedRows(records), rows -> {
            StringBuilder sql = new StringBuilder(head.length() + rows * (tuple.length() + 2) + tail.length());
            sql.append(head).append(tuple);
            for (int i = 1; i < rows; i++) {
                sql.append(", ").append(tuple);
            }
            return sql.append(tail).toString();
        });
    }

    private static String tuple(TargetTable target, List<Field> match, List<Field> written) {
        return "("
                + Stream.concat(match.stream(), written.stream())
                        .map(f -> "CAST(? AS "
                                + target.column(f.name())
                                        .map(TargetColumn::type)
                                        .orElseThrow() + ")")
                        .collect(Collectors.joining(", "))
                + ")";
    }

    private static String aliases(List<Field> match, List<Field> written) {
        return Stream.concat(
                        IntStream.range(0, match.size()).mapToObj(i -> "m" + i),
                        IntStream.range(0, written.size()).mapToObj(i -> "w" + i))
                .collect(Collectors.joining(", "));
    }

    private static String joinOn(TargetTable target, List<Field> match) {
        return IntStream.range(0, match.size())
                .mapToObj(i -> "pglane_t." + quote(match.get(i).name()) + " "
                        + target.equalityOperator(match.get(i).name()) + " pglane_v.m" + i)
                .collect(Collectors.joining(" AND "));
    }
}
