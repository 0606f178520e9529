package dev.pglane.sink.admit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.sink.target.TableMapping;
import dev.pglane.sink.target.TableName;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.LogicalMessage;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.envelope.SourceInfo;
import dev.pglane.wire.envelope.Timestamps;
import dev.pglane.wire.envelope.TransactionInfo;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.RowSchemas;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/** What a writer of a change topic can make the sink apply, and what not. */
class RecordAdmissionTest {
    private static final TopicNames PER_TABLE = TopicNames.perTable("shop");
    private static final TableName PROGRESS = new TableName("public", "pglane_progress");

    private static RecordAdmission admission(TopicNames topics, List<String> included, String format, boolean types) {
        return new RecordAdmission(topics, new TableIncludeList(included), new TableMapping(format), PROGRESS, types);
    }

    private static RecordAdmission perTable() {
        return admission(PER_TABLE, List.of(), "${schema}.${table}", true);
    }

    /** An insert into {@code schema.table} whose one column claims type {@code type}. */
    private static ChangeEvent insertInto(String schema, String table, String type) {
        Schema row = RowSchemas.build(
                "shop",
                schema,
                table,
                List.of(new Column("id", PgColumnType.named(16_384, "t", -1, type), true)),
                NumericMapping.PRECISE);
        SourceInfo source = new SourceInfo(
                "0.1.0", "shop", "db", schema, table, Timestamps.ofMicros(0), null, null, 5L, Lsn.parse("0/10"), null);
        return ChangeEvent.builder(Op.CREATE, source, new TransactionInfo(5, 1, 1, null, 1))
                .after(new Struct(row).put("id", "1"))
                .build();
    }

    private static ChangeEvent insertInto(String schema, String table) {
        return insertInto(schema, table, "integer");
    }

    @Test
    void aRecordOfTheTableItsTopicCarriesIsAdmitted() {
        RecordAdmission admission = perTable();
        assertNull(admission.refusal("shop.public.a", insertInto("public", "a")));
        assertNull(admission.refusal("shop.public.a", insertInto("public", "a")), "and again from the cache");
        assertNull(admission.refusal("shop.Sales.Big_Orders", insertInto("Sales", "Big_Orders")));
    }

    @Test
    void aTopicSharedByTwoNamesAdmitsOnlyTheNameItSpells() {
        RecordAdmission admission = perTable();
        assertNull(admission.refusal("shop.Sales.Big_Orders", insertInto("Sales", "Big_Orders")));
        assertEquals(
                "source table Sales.Big Orders shares topic shop.Sales.Big_Orders with source table Sales.Big_Orders"
                        + " (characters outside [a-zA-Z0-9._-] become _ in topic names), and the sink admits on a topic"
                        + " only the table whose name it spells exactly",
                admission.refusal("shop.Sales.Big_Orders", insertInto("Sales", "Big Orders")));
        assertTrue(admission
                .refusal("shop.Sal_s.orders", insertInto("Salés", "orders"))
                .contains("with source table Sal_s.orders"));
    }

    @Test
    void aDotInANameIsRefusedSinceTheTopicAndTheMappingSplitAtDots() {
        RecordAdmission admission = perTable();
        String schemaDot = admission.refusal("shop.a.b.c", insertInto("a.b", "c"));
        String tableDot = admission.refusal("shop.a.b.c", insertInto("a", "b.c"));
        assertTrue(
                schemaDot.startsWith("source table a.b.c has a dot in its schema or table name: on topic shop.a.b.c"));
        assertEquals(schemaDot, tableDot);
        RecordAdmission single =
                admission(TopicNames.singleTopic("shop", "shop.changes"), List.of(), "${schema}.${table}", false);
        assertTrue(single.refusal("shop.changes", insertInto("a.b", "c")).contains("has a dot"));
    }

    @Test
    void namesOverSixtyThreeBytesAreRefusedSinceTheServerCutsThem() {
        RecordAdmission admission = perTable();
        String sixtyThree = "t".repeat(63);
        assertNull(admission.refusal("shop.public." + sixtyThree, insertInto("public", sixtyThree)));
        String longer = sixtyThree + "_shadow";
        assertEquals(
                "source table public." + longer + " has a name over 63 bytes, which no PostgreSQL table has; the"
                        + " target would cut it to public." + sixtyThree,
                admission.refusal("shop.public." + longer, insertInto("public", longer)));
        String umlauts = "ü".repeat(32);
        assertTrue(admission
                .refusal("shop.public." + "_".repeat(32), insertInto("public", umlauts))
                .contains("cut it to public." + "ü".repeat(31)));
        RecordAdmission suffixed = admission(PER_TABLE, List.of(), "${schema}.${table}_copy", false);
        assertEquals(
                "source table public." + sixtyThree + " maps to public." + sixtyThree + "_copy, a name over 63 bytes"
                        + " that the target would cut to public." + sixtyThree + ", which may be another table",
                suffixed.refusal("shop.public." + sixtyThree, insertInto("public", sixtyThree)));
    }

    @Test
    void aRecordCannotChooseAnotherTableThanItsTopics() {
        RecordAdmission admission = perTable();
        assertNull(admission.refusal("shop.public.a", insertInto("public", "a")));
        assertEquals(
                "it came on topic shop.public.a but names source table public.b, whose changes the source writes to"
                        + " shop.public.b",
                admission.refusal("shop.public.a", insertInto("public", "b")));
        assertNull(admission.refusal("shop.public.a", insertInto("public", "a")), "the next record is judged anew");
    }

    @Test
    void systemSchemasAreRefusedOnBothSides() {
        RecordAdmission admission = perTable();
        assertEquals(
                "source table pg_catalog.pg_authid is in a system schema, which the source never captures",
                admission.refusal("shop.pg_catalog.pg_authid", insertInto("pg_catalog", "pg_authid")));
        assertTrue(admission
                .refusal("shop.information_schema.tables", insertInto("information_schema", "tables"))
                .contains("system schema"));
        RecordAdmission flattened = admission(PER_TABLE, List.of(), "${table}", false);
        assertEquals(
                "source table public.pg_toast.x maps to pg_toast.x, in a system schema",
                flattened.refusal("shop.public.pg_toast.x", insertInto("public", "pg_toast.x")));
    }

    @Test
    void theProgressTableIsNoTarget() {
        assertEquals(
                "source table public.pglane_progress maps to public.pglane_progress, the sink's own progress table",
                perTable().refusal("shop.public.pglane_progress", insertInto("public", "pglane_progress")));
    }

    @Test
    void anIncludeListBoundsTheTablesAlsoOnASingleTopic() {
        RecordAdmission single = admission(
                TopicNames.singleTopic("shop", "shop.changes"), List.of("public\\.(a|b)"), "${schema}.${table}", false);
        assertNull(single.refusal("shop.changes", insertInto("public", "a")));
        assertNull(single.refusal("shop.changes", insertInto("public", "b")));
        assertEquals(
                "source table public.c is not in the sink's table.include.list",
                single.refusal("shop.changes", insertInto("public", "c")));
        assertTrue(single.refusal("shop.public.a", insertInto("public", "a"))
                .startsWith("it came on topic shop.public.a"));
    }

    @Test
    void typeTextsAreCheckedOnlyWhenTheSinkCreatesColumns() {
        ChangeEvent hostile = insertInto("public", "a", "int); DROP TABLE x; --");
        assertEquals(
                "column id claims type 'int); DROP TABLE x; --', which is not a type name: ')' at position 4 is not"
                        + " part of a type name",
                perTable().refusal("shop.public.a", hostile));
        assertNull(admission(PER_TABLE, List.of(), "${schema}.${table}", false).refusal("shop.public.a", hostile));
    }

    @Test
    void messagesBelongOnTheMessagesTopic() {
        ChangeEvent message = ChangeEvent.builder(
                        Op.MESSAGE,
                        new SourceInfo(
                                "0.1.0",
                                "shop",
                                "db",
                                "",
                                "",
                                Timestamps.ofMicros(0),
                                null,
                                null,
                                5L,
                                Lsn.parse("0/10"),
                                null),
                        new TransactionInfo(5, 1, 1, null, 1))
                .message(new LogicalMessage("app", new byte[] {1}, true))
                .build();
        assertNull(perTable().refusal("shop.messages", message));
        assertEquals(
                "a logical decoding message belongs on shop.messages, not on shop.public.a",
                perTable().refusal("shop.public.a", message));
    }
}
