package dev.pglane.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Ways to spoil one record of a {@link CapturedStream}, each a name and a function of the stream and a random source.
 * A mutation replaces one record (same topic, partition and offset) or adds a forged one after the others of its
 * partition, so every other record reaches the sink as the source wrote it.
 */
final class InputMutations {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int HUGE_TEXT = 2 << 20;

    /**
     * One spoiled stream.
     *
     * @param kind what was done, with where
     * @param stream the records to deliver
     * @param mutated the record as delivered
     * @param original the record it replaces, or {@code null} if it was added
     * @param xid the transaction the mutated record belongs to (its key's or its marker's xid); -1 for a START
     */
    record Mutation(String kind, List<SinkRecord> stream, SinkRecord mutated, SinkRecord original, long xid) {}

    private final CapturedStream captured;
    private final RecordCodec codec;
    private final List<Operator> operators = new ArrayList<>();

    private record Operator(String name, boolean markers, BiFunction<JsonNode, Random, String> onJson) {}

    InputMutations(CapturedStream captured, RecordCodec codec) {
        this.captured = captured;
        this.codec = codec;
        operators.add(new Operator("remove a field", false, InputMutations::removeField));
        operators.add(new Operator("swap a type", false, InputMutations::swapType));
        operators.add(new Operator("huge value", false, InputMutations::hugeValue));
        operators.add(new Operator("spoil a schema parameter", false, InputMutations::schemaParameter));
        operators.add(new Operator("generation from the future", false, InputMutations::futureGeneration));
        operators.add(new Operator("another xid", false, InputMutations::anotherXid));
        operators.add(new Operator("marker count", true, InputMutations::markerCount));
        operators.add(new Operator("marker LSN", true, InputMutations::markerLsn));
        operators.add(new Operator("marker field", true, InputMutations::removeField));
        operators.add(new Operator("marker type", true, InputMutations::swapType));
    }

    /** One mutation of a record chosen by {@code random}. */
    Mutation next(Random random) {
        List<SinkRecord> records = captured.records();
        int index = random.nextInt(records.size());
        SinkRecord original = records.get(index);
        boolean marker = original.topic().equals(captured.markerTopic());
        int choice =
                random.nextInt(operators.size() + 5 + codec.framingMutations().size());
        String kind;
        SinkRecord mutated;
        switch (choice) {
            case 0 -> {
                byte[] value = (byte[]) original.value();
                int length = random.nextInt(value.length);
                kind = "truncate the value to " + length + " bytes";
                mutated = withValue(original, Arrays.copyOf(value, length));
            }
            case 1 -> {
                byte[] value = ((byte[]) original.value()).clone();
                int flips = 1 + random.nextInt(3);
                for (int i = 0; i < flips; i++) {
                    value[random.nextInt(value.length)] ^= (byte) (1 + random.nextInt(255));
                }
                kind = "flip " + flips + " value byte(s)";
                mutated = withValue(original, value);
            }
            case 2 -> {
                byte[] key = original.key() == null ? new byte[0] : ((byte[]) original.key()).clone();
                kind = "spoil the key";
                mutated = withKey(original, key.length == 0 ? key : Arrays.copyOf(key, random.nextInt(key.length)));
            }
            case 3 -> {
                return wrongTopic(random, index);
            }
            case 4 -> {
                return duplicate(index);
            }
            default -> {
                List<RecordCodec.FramingMutation> framing = codec.framingMutations();
                if (choice >= operators.size() + 5) {
                    RecordCodec.FramingMutation mutation = framing.get(choice - operators.size() - 5);
                    byte[] value = mutation.apply().spoil(original, records, random);
                    if (value == null) {
                        return next(random);
                    }
                    kind = mutation.name();
                    mutated = withValue(original, value);
                } else {
                    List<Operator> fitting = operators.stream()
                            .filter(o -> o.markers() == marker)
                            .toList();
                    Operator operator = fitting.get(random.nextInt(fitting.size()));
                    JsonNode tree = codec.read(original.topic(), false, (byte[]) original.value());
                    String what = operator.onJson().apply(tree, random);
                    kind = operator.name() + ": " + what;
                    try {
                        mutated = withValue(original, codec.write(original.topic(), false, tree));
                    } catch (RuntimeException e) {
                        return next(random); // the format cannot carry this change: another mutation instead
                    }
                }
            }
        }
        List<SinkRecord> stream = new ArrayList<>(records);
        stream.set(index, mutated);
        return new Mutation(
                kind + " of " + CapturedStream.position(original), stream, mutated, original, xidOf(original));
    }

    /** A change record sent again on another change topic, as a forged record of its transaction. */
    private Mutation wrongTopic(Random random, int index) {
        List<SinkRecord> records = captured.records();
        SinkRecord original = records.get(index);
        List<String> others = records.stream()
                .map(SinkRecord::topic)
                .distinct()
                .filter(t -> !t.equals(original.topic()) && !t.equals(captured.markerTopic()))
                .toList();
        if (original.topic().equals(captured.markerTopic()) || others.isEmpty()) {
            return duplicate(index);
        }
        String topic = others.get(random.nextInt(others.size()));
        SinkRecord forged = appended(original, topic);
        List<SinkRecord> stream = new ArrayList<>(records);
        stream.add(lastOf(stream, topic) + 1, forged);
        return new Mutation(
                "the record of " + CapturedStream.position(original) + " on " + topic,
                stream,
                forged,
                null,
                xidOf(original));
    }

    /** A record sent again at a later offset of its partition. */
    private Mutation duplicate(int index) {
        List<SinkRecord> records = captured.records();
        SinkRecord original = records.get(index);
        SinkRecord again = appended(original, original.topic());
        List<SinkRecord> stream = new ArrayList<>(records);
        stream.add(lastOf(stream, original.topic()) + 1, again);
        return new Mutation(
                "a duplicate of " + CapturedStream.position(original), stream, again, null, xidOf(original));
    }

    private SinkRecord appended(SinkRecord original, String topic) {
        long offset = captured.records().stream()
                        .filter(r -> r.topic().equals(topic))
                        .mapToLong(SinkRecord::kafkaOffset)
                        .max()
                        .orElse(-1)
                + 1;
        return new SinkRecord(topic, 0, null, original.key(), null, original.value(), offset);
    }

    private static int lastOf(List<SinkRecord> stream, String topic) {
        int last = -1;
        for (int i = 0; i < stream.size(); i++) {
            if (stream.get(i).topic().equals(topic)) {
                last = i;
            }
        }
        return last;
    }

    long xidOf(SinkRecord record) {
        boolean marker = record.topic().equals(captured.markerTopic());
        JsonNode payload = codec.read(record.topic(), !marker, (byte[]) (marker ? record.value() : record.key()))
                .path("payload");
        JsonNode xid = payload.path("xid");
        return xid.isNumber() ? xid.asLong() : -1;
    }

    private static String removeField(JsonNode tree, Random random) {
        List<ObjectNode> objects = new ArrayList<>();
        collectObjects(tree, objects);
        objects.removeIf(o -> o.size() == 0);
        ObjectNode object = objects.get(random.nextInt(objects.size()));
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        String name = names.get(random.nextInt(names.size()));
        object.remove(name);
        return "removed " + name;
    }

    private static String swapType(JsonNode tree, Random random) {
        List<Map.Entry<ObjectNode, String>> slots = slots(tree.path("payload"));
        Map.Entry<ObjectNode, String> slot = slots.get(random.nextInt(slots.size()));
        JsonNode replacement = switch (random.nextInt(7)) {
            case 0 -> NODES.textNode("x");
            case 1 -> NODES.numberNode(new BigInteger("123456789012345678901234567890"));
            case 2 -> NODES.booleanNode(true);
            case 3 -> NODES.nullNode();
            case 4 -> NODES.objectNode().put("a", 1);
            case 5 -> NODES.arrayNode().add(1).add("b");
            default -> NODES.numberNode(-1);
        };
        slot.getKey().set(slot.getValue(), replacement);
        return slot.getValue() + " = " + replacement;
    }

    private static String hugeValue(JsonNode tree, Random random) {
        List<Map.Entry<ObjectNode, String>> slots = slots(tree.path("payload"));
        Map.Entry<ObjectNode, String> slot = slots.get(random.nextInt(slots.size()));
        JsonNode replacement = switch (random.nextInt(4)) {
            case 0 -> NODES.textNode("x".repeat(HUGE_TEXT));
            case 1 -> NODES.numberNode(new BigInteger("9".repeat(20_000)));
            case 2 -> NODES.numberNode(new BigDecimal("1E+999999999"));
            default -> {
                ArrayNode many = NODES.arrayNode();
                for (int i = 0; i < 200_000; i++) {
                    many.add(i);
                }
                yield many;
            }
        };
        slot.getKey().set(slot.getValue(), replacement);
        return slot.getValue() + " made huge (" + replacement.getNodeType() + ")";
    }

    /** A column parameter ({@code __pglane.type}, typmod, scale, ...) of the record's schema made something else. */
    private static String schemaParameter(JsonNode tree, Random random) {
        List<ObjectNode> parameters = new ArrayList<>();
        collectParameters(tree.path("schema"), parameters);
        ObjectNode chosen = parameters.get(random.nextInt(parameters.size()));
        List<String> names = new ArrayList<>();
        chosen.fieldNames().forEachRemaining(names::add);
        String name = names.get(random.nextInt(names.size()));
        String[] values = {"-5", "99999999999", "abc", "", "int); DROP TABLE x; --", "2147483647", "text", "bytea"};
        String value = values[random.nextInt(values.length)];
        chosen.put(name, value);
        return name + " = '" + value + "'";
    }

    private static String futureGeneration(JsonNode tree, Random random) {
        ObjectNode transaction = (ObjectNode) tree.path("payload").path("transaction");
        if (transaction.isMissingNode() || !transaction.isObject()) {
            return "nothing (no transaction block)";
        }
        long generation = random.nextBoolean()
                ? Long.MAX_VALUE
                : transaction.path("generation").asLong() + 1_000;
        transaction.put("generation", generation);
        return "generation " + generation;
    }

    private static String anotherXid(JsonNode tree, Random random) {
        ObjectNode transaction = (ObjectNode) tree.path("payload").path("transaction");
        if (!transaction.isObject()) {
            return "nothing (no transaction block)";
        }
        long xid = random.nextBoolean() ? 1 : transaction.path("xid").asLong() + 1;
        transaction.put("xid", xid).put("id", Long.toString(xid));
        return "xid " + xid;
    }

    private static String markerCount(JsonNode tree, Random random) {
        ObjectNode payload = (ObjectNode) tree.path("payload");
        JsonNode collections = payload.path("data_collections");
        int delta = random.nextBoolean() ? 1 : -1;
        if (collections.isArray() && !collections.isEmpty() && random.nextBoolean()) {
            ObjectNode collection = (ObjectNode) collections.get(random.nextInt(collections.size()));
            collection.put("event_count", collection.path("event_count").asLong() + delta);
            return collection.path("topic").asText() + " count " + delta;
        }
        payload.put("event_count", payload.path("event_count").asLong() + delta);
        return "event_count " + delta;
    }

    private static String markerLsn(JsonNode tree, Random random) {
        ObjectNode payload = (ObjectNode) tree.path("payload");
        String[] fields = {"end_lsn", "commit_lsn", "lsn", "generation"};
        String field = fields[random.nextInt(fields.length)];
        long[] values = {
            0,
            1,
            Long.MAX_VALUE,
            -1,
            payload.path(field).asLong() - 1,
            payload.path(field).asLong() + 1
        };
        long value = values[random.nextInt(values.length)];
        payload.put(field, value);
        return field + " = " + value;
    }

    private static void collectObjects(JsonNode node, List<ObjectNode> into) {
        if (node instanceof ObjectNode object) {
            into.add(object);
        }
        node.forEach(child -> collectObjects(child, into));
    }

    private static void collectParameters(JsonNode node, List<ObjectNode> into) {
        if (node instanceof ObjectNode object && object.path("parameters").isObject()) {
            into.add((ObjectNode) object.path("parameters"));
        }
        node.forEach(child -> collectParameters(child, into));
    }

    /** Every (object, field) under {@code node}, to replace a value in place. */
    private static List<Map.Entry<ObjectNode, String>> slots(JsonNode node) {
        List<Map.Entry<ObjectNode, String>> slots = new ArrayList<>();
        List<ObjectNode> objects = new ArrayList<>();
        collectObjects(node, objects);
        for (ObjectNode object : objects) {
            object.fieldNames().forEachRemaining(name -> slots.add(Map.entry(object, name)));
        }
        return slots;
    }

    private static SinkRecord withValue(SinkRecord original, byte[] value) {
        return original.newRecord(
                original.topic(), original.kafkaPartition(), null, original.key(), null, value, original.timestamp());
    }

    private static SinkRecord withKey(SinkRecord original, byte[] key) {
        return original.newRecord(
                original.topic(), original.kafkaPartition(), null, key, null, original.value(), original.timestamp());
    }
}
