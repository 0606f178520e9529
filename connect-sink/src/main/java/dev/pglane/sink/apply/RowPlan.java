package dev.pglane.sink.apply;

import static dev.pglane.sink.target.Identifiers.columnList;
import static dev.pglane.sink.target.Identifiers.qualified;
import static dev.pglane.sink.target.Identifiers.quote;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.TargetColumn;
import dev.pglane.sink.target.TargetTable;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.types.ColumnParameters;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * How the changes of one shape (target table, operation, row fields, unchanged-TOAST columns) become
 * SQL. Consecutive changes with equal plans go to the target as one statement or JDBC batch.
 */
final class RowPlan {
    enum Kind {
        INSERT,
        UPDATE,
        DELETE
    }

    /** PostgreSQL's protocol carries the parameter count as a 16-bit number. */
    private static final int MAX_BIND_PARAMETERS = 65_535;

    final Kind kind;
    final TableName table;
    /** The bound values: INSERT's columns, UPDATE's SET list. */
    final List<Field> written;
    /** The fields that identify the row: WHERE of UPDATE and DELETE, the key errors and logs name. */
    final List<Field> match;
    /** UPDATE or DELETE text; null for an update with nothing to write. */
    final String statement;
    /**
     * How this plan's conflicts are met: {@code conflict.policy}, except for snapshot rows and for changes of a
     * table whose snapshot is pending, which the target may lack or already hold for reasons that are no conflict:
     * those always upsert.
     */
    final ConflictPolicy policy;
    /**
     * True for snapshot rows ({@code op = r}): they overwrite what the target holds with the source's row as of the
     * chunk, which is no conflict, so the INSERT reports nothing back and any row it leaves alone is identical.
     */
    final boolean overwrites;
    /**
     * Single-row upsert of {@link #written}, for an update of a missing row under upsert; null under
     * other policies and when the update keeps unchanged TOAST values, which a new row cannot have.
     */
    final String upsertRow;
    /** True if the INSERT returns one {@code inserted} boolean per written row (upsert with a key). */
    final boolean returnsInserted;
    /** Most rows of one statement (INSERT) or JDBC batch (UPDATE, DELETE, INSERT under skip). */
    final int maxRows;
    /**
     * The statement that changes many rows at once, for an UPDATE or DELETE by the target's key; null for other
     * plans, which send one statement per row.
     */
    final SetStatement set;
    /** True for changes of a table whose snapshot is pending ({@code pending_snapshot}): their misses are no conflict. */
    final boolean pending;
    /**
     * For a pending UPDATE by key that can insert its new row ({@link #upsertRow}): the statement that follows its
     * set statement with the same rows and inserts those whose old key the target lacks, upserting by the new key,
     * which is what the statement-by-statement path does for each row that found none. Null for other plans.
     */
    final SetStatement insertMissing;

    private final String insertHead;
    private final String rowTuple;
    private final String conflictClause;

    private RowPlan(
            Kind kind,
            TargetTable target,
            List<Field> written,
            List<Field> match,
            boolean keepsToast,
            ConflictPolicy policy,
            boolean overwrites,
            boolean pending,
            int batchMaxRows) {
        this.kind = kind;
        this.pending = pending;
        this.table = target.name();
        this.written = written;
        this.match = match;
        boolean keyed = !target.identityKey().isEmpty();
        this.insertHead = written.isEmpty()
                ? "INSERT INTO " + qualified(table)
                : "INSERT INTO " + qualified(table) + " (" + columnList(names(written)) + ") VALUES ";
        this.rowTuple = written.isEmpty() ? " DEFAULT VALUES" : "(" + placeholders(written.size()) + ")";
        List<String> upsertKey =
                keyed && names(written).containsAll(target.identityKey()) ? target.identityKey() : List.of();
        // a partitioned table cannot return xmax of the rows it routes: its upserts are not told apart from inserts
        String upsert = upsertClause(upsertKey, !target.partitioned());
        this.policy = policy;
        this.overwrites = overwrites;
        this.conflictClause = overwrites ? upsertClause(upsertKey, false) : conflictClause(policy, upsert);
        this.returnsInserted =
                policy == ConflictPolicy.UPSERT && !overwrites && !upsertKey.isEmpty() && !target.partitioned();
        this.statement = statement(target, keyed);
        this.upsertRow = kind == Kind.UPDATE && policy == ConflictPolicy.UPSERT && !keepsToast
                ? insertHead + rowTuple + upsert
                : null;
        this.maxRows = maxRows(batchMaxRows);
        this.set = setStatement(target, keyed, batchMaxRows);
        this.insertMissing = insertMissing(target, upsertKey, batchMaxRows);
    }

    /** What an INSERT of a change under {@code policy} adds: nothing, DO NOTHING, or {@code upsert}. */
    private static String conflictClause(ConflictPolicy policy, String upsert) {
        return switch (policy) {
            case ERROR -> "";
            case SKIP -> " ON CONFLICT DO NOTHING";
            case UPSERT -> upsert;
        };
    }

    /** See {@link #insertMissing}; needs {@link #set} and {@link #upsertRow} made first. */
    private SetStatement insertMissing(TargetTable target, List<String> upsertKey, int batchMaxRows) {
        if (!pending || set == null || upsertRow == null) {
            return null;
        }
        return SetStatement.insertMissing(target, match, written, upsertClause(upsertKey, false), batchMaxRows);
    }

    private SetStatement setStatement(TargetTable target, boolean keyed, int batchMaxRows) {
        if (!keyed || !names(match).equals(target.identityKey())) {
            return null;
        }
        return switch (kind) {
            case UPDATE -> statement == null ? null : SetStatement.update(target, match, written, batchMaxRows);
            case DELETE -> SetStatement.delete(target, match, batchMaxRows);
            case INSERT -> null;
        };
    }

    record Settings(ConflictPolicy policy, int batchMaxRows) {}

    /**
     * The plan for changes of {@code op} with rows of {@code rowSchema} on {@code target}.
     *
     * @param record the change that needs the plan, named if the target cannot take it
     * @throws ConnectException if updates or deletes cannot identify the target row
     */
    static RowPlan of(TargetTable target, ChangeRecord record, Schema rowSchema, Settings settings) {
        ChangeEvent event = record.event();
        Kind kind = kindOf(event.op());
        List<Field> written = kind == Kind.DELETE
                ? List.of()
                : rowSchema.fields().stream()
                        .filter(f -> !event.unchangedToast().contains(f.name()))
                        .filter(f -> !target.column(f.name())
                                .map(TargetColumn::generated)
                                .orElse(false))
                        .toList();
        List<Field> match = matchFields(target, rowSchema);
        if (kind != Kind.INSERT && match.isEmpty()) {
            throw new ConnectException("Cannot find the target row of record " + record.position() + ": table "
                    + target.name() + " has no primary or unique key whose columns the record carries, and the"
                    + " record marks no replica identity columns");
        }
        boolean overwrites = event.op() == Op.READ;
        ConflictPolicy policy = overwrites || event.pendingSnapshot() ? ConflictPolicy.UPSERT : settings.policy;
        return new RowPlan(
                kind,
                target,
                written,
                match,
                !event.unchangedToast().isEmpty(),
                policy,
                overwrites,
                event.pendingSnapshot() && !overwrites,
                settings.batchMaxRows);
    }

    private static Kind kindOf(Op op) {
        return switch (op) {
            case CREATE, READ -> Kind.INSERT;
            case UPDATE -> Kind.UPDATE;
            case DELETE -> Kind.DELETE;
            default -> throw new IllegalArgumentException("no row plan for op " + op);
        };
    }

    /**
     * The target's key when the record carries all its columns; else the source's replica identity
     * columns, compared row by row as under REPLICA IDENTITY FULL.
     */
    private static List<Field> matchFields(TargetTable target, Schema rowSchema) {
        List<String> key = target.identityKey();
        if (!key.isEmpty() && key.stream().allMatch(k -> rowSchema.field(k) != null)) {
            return key.stream().map(rowSchema::field).toList();
        }
        return rowSchema.fields().stream()
                .filter(f -> ColumnParameters.isKey(f.schema()))
                .toList();
    }

    /** INSERT of {@code rows} rows: {@code VALUES (?, ?), (?, ?)} plus the policy's ON CONFLICT clause. */
    String insert(int rows) {
        StringBuilder sql = new StringBuilder(insertHead.length() + rows * (rowTuple.length() + 2) + 64);
        sql.append(insertHead).append(rowTuple);
        for (int i = 1; i < rows; i++) {
            sql.append(", ").append(rowTuple);
        }
        return sql.append(conflictClause).toString();
    }

    /** What a row of this plan that finds the target otherwise than it expects is: the conflict kind it names. */
    String missKind() {
        return switch (kind) {
            case INSERT -> ConflictListener.INSERT_EXISTS;
            case UPDATE -> ConflictListener.UPDATE_MISSING;
            case DELETE -> ConflictListener.DELETE_MISSING;
        };
    }

    /** The key of the row {@code record} changes, e.g. {@code (id)=(5)}. */
    String describeKey(ChangeRecord record) {
        ChangeEvent event = record.event();
        return RowValues.describe(match, event, kind == Kind.INSERT ? RowImage.AFTER : RowValues.matchImage(event));
    }

    /** The key of the target row {@code record} changes, as text, for telling the rows of a batch apart. */
    List<String> matchKey(ChangeRecord record) {
        return texts(match, record.event(), RowValues.matchImage(record.event()));
    }

    /** True if {@code record}, an update, leaves its row's key as it was. */
    boolean keepsKey(ChangeRecord record) {
        return record.event().before() == null || matchKey(record).equals(newKey(record));
    }

    /** The key {@code record}, an update, gives its row, as text. */
    List<String> newKey(ChangeRecord record) {
        return texts(match, record.event(), RowImage.AFTER);
    }

    private static List<String> texts(List<Field> fields, ChangeEvent event, RowImage image) {
        return Arrays.asList(
                fields.stream().map(f -> RowValues.text(f, event, image)).toArray(String[]::new));
    }

    /** True if changes of both plans can share one statement or batch. */
    boolean sameStatement(RowPlan other) {
        return this == other
                || (kind == other.kind
                        && table.equals(other.table)
                        && insertHead.equals(other.insertHead)
                        && conflictClause.equals(other.conflictClause)
                        && String.valueOf(statement).equals(String.valueOf(other.statement)));
    }

    private String statement(TargetTable target, boolean keyed) {
        return switch (kind) {
            case INSERT -> null;
            case UPDATE ->
                written.isEmpty()
                        ? null
                        : "UPDATE " + qualified(table) + " SET " + assignments() + where(target, keyed);
            case DELETE -> "DELETE FROM " + qualified(table) + where(target, keyed);
        };
    }

    /**
     * A multi-row INSERT stays under the protocol's bind parameter limit; a row without columns
     * ({@code DEFAULT VALUES}) has no multi-row form.
     */
    private int maxRows(int batchMaxRows) {
        if (kind != Kind.INSERT) {
            return batchMaxRows;
        }
        if (written.isEmpty()) {
            return 1;
        }
        return policy == ConflictPolicy.SKIP
                ? batchMaxRows
                : Math.max(1, Math.min(batchMaxRows, MAX_BIND_PARAMETERS / written.size()));
    }

    /** @param reportsInserted whether the statement returns, per row, if it was inserted rather than overwritten */
    private String upsertClause(List<String> key, boolean reportsInserted) {
        if (key.isEmpty()) {
            return ""; // a table without a key cannot conflict on one: a plain insert
        }
        List<String> others =
                names(written).stream().filter(c -> !key.contains(c)).toList();
        String action = others.isEmpty()
                ? "NOTHING"
                : "UPDATE SET "
                        + others.stream()
                                .map(c -> quote(c) + " = EXCLUDED." + quote(c))
                                .collect(Collectors.joining(", "));
        // xmax is 0 on a freshly inserted row and set on one the upsert overwrote.
        return " ON CONFLICT (" + columnList(key) + ") DO " + action + (reportsInserted ? " RETURNING xmax = 0" : "");
    }

    private String assignments() {
        return written.stream().map(f -> quote(f.name()) + " = ?").collect(Collectors.joining(", "));
    }

    /**
     * By key: {@code WHERE k OPERATOR(pg_catalog.=) ?}, with the key index's own operator. Without one, the row's identity columns compared as canonical text
     * (every type has a text form, not every type an equality operator), and {@code ctid} so that only
     * one of several identical rows changes, as PostgreSQL's subscriber does; with {@code tableoid}, since in a
     * partitioned table each partition has its own ctids (a TID scan serves the pair as it serves ctid alone).
     */
    private String where(TargetTable target, boolean keyed) {
        if (keyed && match.stream().map(Field::name).toList().equals(target.identityKey())) {
            return " WHERE "
                    + match.stream()
                            .map(f -> quote(f.name()) + " " + target.equalityOperator(f.name()) + " ?")
                            .collect(Collectors.joining(" AND "));
        }
        String same = match.stream()
                .map(f -> quote(f.name()) + "::text IS NOT DISTINCT FROM CAST(? AS " + typeOf(target, f) + ")::text")
                .collect(Collectors.joining(" AND "));
        return " WHERE (tableoid, ctid) = (SELECT tableoid, ctid FROM " + qualified(table) + " WHERE " + same
                + " LIMIT 1)";
    }

    private static String typeOf(TargetTable target, Field field) {
        return target.column(field.name()).map(TargetColumn::type).orElseThrow();
    }

    private static List<String> names(List<Field> fields) {
        return fields.stream().map(Field::name).toList();
    }

    private static String placeholders(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }
}
