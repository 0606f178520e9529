package dev.pglane.sink.schedule;

import dev.pglane.sink.assemble.ChangeRecord;
import dev.pglane.sink.assemble.ListedChanges;
import dev.pglane.sink.assemble.SourceTransaction;
import dev.pglane.sink.target.ForeignKey;
import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;
import dev.pglane.sink.target.TargetColumn;
import dev.pglane.sink.target.TargetTable;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.envelope.TruncateInfo;
import dev.pglane.wire.marker.DataCollectionCount;
import dev.pglane.wire.marker.Marker;
import dev.pglane.wire.marker.SnapshotChunk;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.RowSchemas;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Three source tables and their targets, and transactions of real change events on them:
 * {@code accounts (id int4 primary key, email text unique, balance int8)},
 * {@code items (id int4 primary key, account_id int8 references accounts, qty int4)} and
 * {@code audit (note text)} without any key.
 */
final class SampleTables {
    static final TableName ACCOUNTS = new TableName("public", "accounts");
    static final TableName ITEMS = new TableName("public", "items");
    static final TableName AUDIT = new TableName("public", "audit");

    static final Schema ACCOUNTS_ROW = row(
            "accounts",
            new Column("id", PgColumnType.of(PgType.INT4, -1), true),
            new Column("email", PgColumnType.of(PgType.TEXT, -1), false),
            new Column("balance", PgColumnType.of(PgType.INT8, -1), false));
    static final Schema ITEMS_ROW = row(
            "items",
            new Column("id", PgColumnType.of(PgType.INT4, -1), true),
            new Column("account_id", PgColumnType.of(PgType.INT8, -1), false),
            new Column("qty", PgColumnType.of(PgType.INT4, -1), false));
    static final Schema AUDIT_ROW = row("audit", new Column("note", PgColumnType.of(PgType.TEXT, -1), false));

    static final Map<TableName, TargetTable> TARGETS = Map.of(
            ACCOUNTS,
            new TargetTable(
                    ACCOUNTS, columns("id", "email", "balance"), List.of("id"), List.of(List.of("email")), List.of()),
            ITEMS,
            new TargetTable(
                    ITEMS,
                    columns("id", "account_id", "qty"),
                    List.of("id"),
                    List.of(),
                    List.of(new ForeignKey(List.of("account_id"), ACCOUNTS, List.of("id")))),
            AUDIT,
            new TargetTable(AUDIT, columns("note"), List.of(), List.of(), List.of()));

    private static final TopicPartition PARTITION = new TopicPartition("shop.public.all", 0);

    private SampleTables() {}

    /** A write-set builder over {@link #TARGETS} with the identity table mapping. */
    static WriteSetBuilder writeSets() {
        return writeSets(false);
    }

    /** The same, for a sink whose whole-table snapshots empty their target tables first, or not. */
    static WriteSetBuilder writeSets(boolean snapshotTruncate) {
        Function<TableName, Optional<TargetTable>> catalog = name -> Optional.ofNullable(TARGETS.get(name));
        return new WriteSetBuilder(new TableMapping("${schema}.${table}"), catalog, snapshotTruncate);
    }

    static Struct account(int id, String email, long balance) {
        return new Struct(ACCOUNTS_ROW).put("id", id).put("email", email).put("balance", balance);
    }

    static Struct item(int id, long accountId, int qty) {
        return new Struct(ITEMS_ROW).put("id", id).put("account_id", accountId).put("qty", qty);
    }

    static Struct audit(String note) {
        return new Struct(AUDIT_ROW).put("note", note);
    }

    /** Builds one transaction's change events in order; {@link #build()} makes the transaction. */
    static final class TxBuilder {
        private final long xid;
        private final List<ChangeEvent> events = new ArrayList<>();
        private boolean spilled;
        private SnapshotChunk chunk;

        TxBuilder(long xid) {
            this.xid = xid;
        }

        TxBuilder insert(String table, Struct after) {
            return add(ChangeEvent.builder(Op.CREATE, source(table), info()).after(after));
        }

        /** A snapshot row ({@code op = r}), as a snapshot chunk carries them. */
        TxBuilder read(String table, Struct after) {
            return add(ChangeEvent.builder(Op.READ, source(table), info()).after(after));
        }

        TxBuilder update(String table, Struct before, Struct after) {
            return add(ChangeEvent.builder(Op.UPDATE, source(table), info())
                    .before(before)
                    .after(after));
        }

        TxBuilder delete(String table, Struct before) {
            return add(ChangeEvent.builder(Op.DELETE, source(table), info()).before(before));
        }

        TxBuilder truncate(String table) {
            return add(
                    ChangeEvent.builder(Op.TRUNCATE, source(table), info()).truncate(new TruncateInfo(false, false)));
        }

        TxBuilder event(ChangeEvent event) {
            events.add(event);
            return this;
        }

        /** Makes the transaction a snapshot chunk. */
        TxBuilder snapshotChunk(SnapshotChunk snapshot) {
            chunk = snapshot;
            return this;
        }

        TxBuilder spilled() {
            spilled = true;
            return this;
        }

        boolean isEmpty() {
            return events.isEmpty();
        }

        SourceTransaction build() {
            List<ChangeRecord> records = new ArrayList<>();
            for (ChangeEvent event : events) {
                records.add(new ChangeRecord(PARTITION, xid * 1000 + records.size(), event, 100));
            }
            List<DataCollectionCount> counts = records.isEmpty()
                    ? List.of()
                    : List.of(new DataCollectionCount("public.all", records.size(), PARTITION.topic()));
            Lsn end = Lsn.valueOf(xid * 0x100 + 0x30);
            Marker.End marker = new Marker.End(
                    1, xid, Lsn.valueOf(xid * 0x100), end, 1_700_000_000_000_000L + xid, records.size(), counts, chunk);
            return new SourceTransaction(
                    marker, xid, Map.of(PARTITION, xid * 1000), new ListedChanges(records, spilled));
        }

        TransactionInfo info() {
            return new TransactionInfo(xid, events.size() + 1, events.size() + 1, null, 1);
        }

        SourceInfo source(String table) {
            Lsn lsn = Lsn.valueOf(xid * 0x100 + events.size() + 1);
            return new SourceInfo(
                    "0.1.0", "shop", "inventory", "public", table, Timestamps.ofMicros(1), null, null, xid, lsn, null);
        }

        private TxBuilder add(ChangeEvent.Builder event) {
            events.add(event.build());
            return this;
        }
    }

    private static Schema row(String table, Column... columns) {
        return RowSchemas.build("shop", "public", table, List.of(columns), NumericMapping.PRECISE);
    }

    private static List<TargetColumn> columns(String... names) {
        return Arrays.stream(names)
                .map(name -> new TargetColumn(name, "text", false))
                .toList();
    }
}
