package dev.pglane.source.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.source.pgoutput.DeleteMessage;
import dev.pglane.source.pgoutput.PgOutputMessage;
import dev.pglane.source.pgoutput.RelationColumn;
import dev.pglane.source.pgoutput.RelationMessage;
import dev.pglane.source.pgoutput.TupleData;
import dev.pglane.source.schema.JdbcTypeCatalog;
import dev.pglane.source.schema.RelationDescriptor;
import dev.pglane.source.schema.RelationDescriptorFactory;
import dev.pglane.source.schema.RowKeyColumns;
import dev.pglane.wire.TopicNames;
import dev.pglane.wire.envelope.EnvelopeSchemas;
import dev.pglane.wire.envelope.RowImage;
import dev.pglane.wire.types.Column;
import dev.pglane.wire.types.NumericMapping;
import dev.pglane.wire.types.PgColumnType;
import dev.pglane.wire.types.PgType;
import dev.pglane.wire.types.RowSchemas;
import dev.pglane.wire.types.ValueMappings;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Rows decoded from real pgoutput tuples: nulls, unchanged TOAST, text values, errors naming the column. */
class RowDecoderTest {

    private static final String BIG = "(SELECT string_agg(md5(i::text), '') FROM generate_series(1, 500) i)";

    private static PgTextServer server;
    private static LogicalChanges changes;
    private static RelationDescriptorFactory factory;

    @BeforeAll
    static void start() {
        server = PgTextServer.start();
        server.execute("CREATE TABLE orders (id int PRIMARY KEY, amount numeric(10,2), note text, big text,"
                + " due timestamp, tags text[])");
        changes = LogicalChanges.capture(server, "orders_slot", "orders");
        factory = new RelationDescriptorFactory(
                "shop",
                TopicNames.perTable("shop"),
                ValueMappings.DEFAULT,
                new EnvelopeSchemas(),
                new JdbcTypeCatalog(server.session()),
                RowKeyColumns.NONE);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void insertUpdateAndDeleteImages() {
        server.execute(
                "INSERT INTO orders VALUES (1, 12.5, 'first', " + BIG + ", '2024-03-01 12:00', '{a,\"b c\"}')",
                "UPDATE orders SET note = 'second' WHERE id = 1",
                "INSERT INTO orders (id) VALUES (2)",
                "DELETE FROM orders WHERE id = 2");
        List<PgOutputMessage> messages = changes.read();
        RelationDescriptor orders = factory.create(LogicalChanges.relation(messages));
        List<TupleData> tuples = LogicalChanges.newTuples(messages);

        DecodedRow inserted = orders.rowDecoder().decode(tuples.get(0), RowImage.AFTER);
        Struct row = inserted.row();
        assertEquals(1, row.get("id"));
        assertEquals(new BigDecimal("12.50"), row.get("amount"));
        assertEquals(server.text(BIG), row.get("big"));
        assertEquals(List.of("a", "b c"), row.get("tags"));
        assertEquals(List.of(), inserted.unchangedToast());
        assertEquals(Map.of(), inserted.textValues());

        DecodedRow updated = orders.rowDecoder().decode(tuples.get(1), RowImage.AFTER);
        assertEquals("second", updated.row().get("note"));
        assertNull(updated.row().get("big"));
        assertEquals(List.of("big"), updated.unchangedToast(), "the TOASTed value was not sent again");

        DecodedRow nulls = orders.rowDecoder().decode(tuples.get(2), RowImage.AFTER);
        assertEquals(2, nulls.row().get("id"));
        assertNull(nulls.row().get("amount"));
        assertEquals(List.of(), nulls.unchangedToast());

        DeleteMessage delete = (DeleteMessage) messages.stream()
                .filter(DeleteMessage.class::isInstance)
                .findFirst()
                .orElseThrow();
        DecodedRow key = orders.rowDecoder().decode(delete.oldTuple(), RowImage.BEFORE);
        assertEquals(2, key.row().get("id"));
        assertNull(key.row().get("note"));
    }

    @Test
    void valuesTheFieldsCannotHoldGoToTextValuesUnderTheImagesPrefix() {
        server.execute("INSERT INTO orders VALUES (3, 'NaN', 'x', 'y', '294276-01-01 00:00', '{{a,b},{c,d}}')");
        List<PgOutputMessage> messages = changes.read();
        RelationDescriptor orders = factory.create(LogicalChanges.relation(messages));
        TupleData tuple = LogicalChanges.newTuples(messages).get(0);

        DecodedRow after = orders.rowDecoder().decode(tuple, RowImage.AFTER);
        assertEquals(
                Map.of("after.amount", "NaN", "after.due", "294276-01-01 00:00:00", "after.tags", "{{a,b},{c,d}}"),
                after.textValues());
        assertNull(after.row().get("amount"));
        assertNull(after.row().get("due"));
        assertEquals("x", after.row().get("note"));
        DecodedRow before = orders.rowDecoder().decode(tuple, RowImage.BEFORE);
        assertEquals("NaN", before.textValues().get("before.amount"));
    }

    @Test
    void anUndecodableValueNamesTheRelationColumnTypeAndText() {
        server.execute("INSERT INTO orders (id, note, big) VALUES (4, 'not a number', " + BIG + ")");
        List<PgOutputMessage> messages = changes.read();
        RelationMessage relation = LogicalChanges.relation(messages);
        TupleData tuple = LogicalChanges.newTuples(messages).get(0);
        List<Column> asIntegers = new ArrayList<>();
        for (int i = 0; i < relation.columns().size(); i++) {
            asIntegers.add(new Column(relation.columns().get(i).name(), PgColumnType.of(PgType.INT4, -1), false));
        }
        RowDecoder wrong = ordersDecoder(asIntegers);

        ValueDecodingException e =
                assertThrows(ValueDecodingException.class, () -> wrong.decode(tuple, RowImage.AFTER));
        assertEquals("note", e.column());
        assertTrue(e.getMessage().contains("\"note\" of public.orders (type integer)"), e.getMessage());
        assertTrue(e.getMessage().contains("'not a number'"), e.getMessage());

        List<Column> bigOnly = new ArrayList<>(asIntegers);
        bigOnly.set(2, new Column("note", PgColumnType.of(PgType.TEXT, -1), false));
        RowDecoder wrongBig = ordersDecoder(bigOnly);
        ValueDecodingException big =
                assertThrows(ValueDecodingException.class, () -> wrongBig.decode(tuple, RowImage.AFTER));
        assertEquals("big", big.column());
        assertTrue(big.getMessage().contains("…' (16000 characters)"), big.getMessage());
        assertTrue(big.getMessage().length() < 600, big.getMessage());
    }

    @Test
    void aScaleBeyondTheColumnsIsAnErrorNamingTheColumn() {
        server.execute("INSERT INTO orders (id, note) VALUES (5, '1.005')");
        List<PgOutputMessage> messages = changes.read();
        RelationMessage relation = LogicalChanges.relation(messages);
        List<Column> columns = new ArrayList<>();
        for (RelationColumn column : relation.columns()) {
            PgColumnType type = column.name().equals("note")
                    ? server.columnType("numeric(10,2)")
                    : new JdbcTypeCatalog(server.session()).resolve(column.typeOid(), column.typeModifier());
            columns.add(new Column(column.name(), type, column.key()));
        }
        RowDecoder decoder = ordersDecoder(columns);
        ValueDecodingException e = assertThrows(
                ValueDecodingException.class,
                () -> decoder.decode(LogicalChanges.newTuples(messages).get(0), RowImage.AFTER));
        assertEquals("note", e.column());
        assertTrue(e.getMessage().contains("numeric(10,2)") && e.getMessage().contains("'1.005'"), e.getMessage());
    }

    @Test
    void binaryTuplesAndWrongColumnCountsAreRejected() {
        server.execute("INSERT INTO orders (id) VALUES (6)");
        List<PgOutputMessage> messages = changes.read("binary", "true");
        RelationDescriptor orders = factory.create(LogicalChanges.relation(messages));
        TupleData binary = LogicalChanges.newTuples(messages).get(0);
        assertEquals('b', binary.kind(0));
        ValueDecodingException e = assertThrows(
                ValueDecodingException.class, () -> orders.rowDecoder().decode(binary, RowImage.AFTER));
        assertTrue(e.getMessage().contains("binary"), e.getMessage());

        List<Column> fewer = orders.columns().subList(0, 2);
        RowDecoder narrow = ordersDecoder(fewer);
        assertThrows(IllegalArgumentException.class, () -> narrow.decode(binary, RowImage.AFTER));
    }

    /** A decoder of the orders table as if its Relation message had described {@code columns}. */
    private static RowDecoder ordersDecoder(List<Column> columns) {
        return RowDecoder.create(
                "public.orders",
                columns,
                RowSchemas.build("shop", "public", "orders", columns, NumericMapping.PRECISE));
    }
}
