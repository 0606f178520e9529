package dev.pglane.sink.assemble;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.sink.progress.AppliedPosition;
import dev.pglane.wire.Lsn;
import dev.pglane.wire.marker.Marker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source run on an exactly-once worker cut off from the broker, read with {@code isolation.level=read_uncommitted}:
 * per partition, the consumer reads the run's committed records, then a prefix of what it wrote into the Kafka
 * transaction its successor aborted; then the successor's START and every transaction after the last committed END
 * again, under a greater generation. The sink task may move (a restart from committed consumer offsets, with the
 * applied position the target holds), possibly from offsets committed a while before. Every transaction must be
 * released exactly once, whole.
 */
@Timeout(120)
class AbortedRunPropertyTest {
    @TempDir
    Path spillDirectory;

    private record Planned(long xid, long endLsn, List<TopicPartition> partitions) {}

    private record Released(long xid, List<Long> orders) {}

    private record Item(TopicPartition partition, long offset, ChangeRecord change, Marker marker) {}

    private static final class Source {
        final Map<TopicPartition, List<Item>> streams = new LinkedHashMap<>();
        final List<Planned> all = new ArrayList<>();

        void emit(TopicPartition partition, ChangeRecord change, Marker marker) {
            List<Item> stream = streams.computeIfAbsent(partition, ignored -> new ArrayList<>());
            ChangeRecord placed = change == null
                    ? null
                    : new ChangeRecord(partition, stream.size(), change.event(), change.sizeBytes());
            stream.add(new Item(partition, stream.size(), placed, marker));
        }

        int size(TopicPartition partition) {
            return streams.getOrDefault(partition, List.of()).size();
        }

        /** Writes a transaction whole (records, then END) under {@code generation}; into {@code into} if given. */
        void send(Planned plan, long generation, Map<TopicPartition, List<Item>> into) {
            List<ChangeRecord> records = records(plan, generation);
            for (ChangeRecord record : records) {
                add(into, record.partition(), record, null);
            }
            add(into, Changes.MARKERS, null, Changes.end(plan.xid(), generation, plan.endLsn(), records));
        }

        private void add(Map<TopicPartition, List<Item>> into, TopicPartition partition, ChangeRecord c, Marker m) {
            if (into == null) {
                emit(partition, c, m);
            } else {
                into.computeIfAbsent(partition, ignored -> new ArrayList<>()).add(new Item(partition, -1, c, m));
            }
        }
    }

    private static List<ChangeRecord> records(Planned plan, long generation) {
        List<ChangeRecord> records = new ArrayList<>();
        for (int i = 0; i < plan.partitions().size(); i++) {
            records.add(Changes.insert(
                    plan.xid(), generation, i + 1, plan.partitions().get(i), 0));
        }
        return records;
    }

    private static Source source(Random random) {
        Source source = new Source();
        long xid = 100;
        long lsn = 0x1000;
        int total = 6 + random.nextInt(10);
        for (int i = 0; i < total; i++) {
            int size = random.nextInt(5);
            List<TopicPartition> partitions = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                partitions.add(random.nextBoolean() ? Changes.items() : Changes.orders((int) (xid % 2)));
            }
            lsn += 0x100;
            source.all.add(new Planned(xid++, lsn, partitions));
        }
        int committed = random.nextInt(total - 2);
        int zombieEnds = committed + random.nextInt(total - committed - 1);
        source.emit(Changes.MARKERS, null, Changes.start(1));
        for (int i = 0; i < committed; i++) {
            source.send(source.all.get(i), 1, null);
        }
        // the aborted Kafka transaction: whole transactions, then the start of one without END
        Map<TopicPartition, List<Item>> aborted = new HashMap<>();
        for (int i = committed; i < zombieEnds; i++) {
            source.send(source.all.get(i), 1, aborted);
        }
        List<ChangeRecord> open = records(source.all.get(zombieEnds), 1);
        open.subList(0, random.nextInt(open.size() + 1))
                .forEach(record -> aborted.computeIfAbsent(record.partition(), ignored -> new ArrayList<>())
                        .add(new Item(record.partition(), -1, record, null)));
        // what reached the broker: a prefix of it per partition
        aborted.forEach((partition, items) -> items.subList(0, random.nextInt(items.size() + 1))
                .forEach(item -> source.emit(partition, item.change(), item.marker())));
        source.emit(Changes.MARKERS, null, Changes.start(2));
        for (int i = committed; i < total; i++) {
            source.send(source.all.get(i), 2, null);
        }
        return source;
    }

    /** Delivers every partition from {@code from} in a random merge; returns the items in order. */
    private static List<Item> deliveries(Source source, Map<TopicPartition, Integer> from, Random random) {
        Map<TopicPartition, ArrayList<Item>> pending = new LinkedHashMap<>();
        source.streams.forEach((partition, items) -> {
            int start = from.getOrDefault(partition, 0);
            if (start < items.size()) {
                pending.put(partition, new ArrayList<>(items.subList(start, items.size())));
            }
        });
        List<Item> order = new ArrayList<>();
        while (!pending.isEmpty()) {
            List<TopicPartition> open = new ArrayList<>(pending.keySet());
            TopicPartition partition = open.get(random.nextInt(open.size()));
            List<Item> items = pending.get(partition);
            int burst = 1 + random.nextInt(4);
            for (int i = 0; i < burst && !items.isEmpty(); i++) {
                order.add(items.remove(0));
            }
            if (items.isEmpty()) {
                pending.remove(partition);
            }
        }
        return order;
    }

    private TransactionAssembler assembler(SpillArea area, AppliedPosition applied) {
        return new TransactionAssembler(
                new AssemblerSettings(1L << 30, area, Long.MAX_VALUE, topic -> true), applied, AssemblerListener.NONE);
    }

    private static void feed(TransactionAssembler assembler, Item item) {
        if (item.change() != null) {
            assembler.addChange(item.change());
        } else {
            assembler.addMarker(item.marker(), item.partition(), item.offset());
        }
    }

    @Test
    void everyTransactionOnceAndWholeAcrossAnAbortedRunAndATaskMove() throws IOException {
        for (long seed = 1; seed <= 5000; seed++) {
            Random random = new Random(seed);
            Source source = source(random);
            List<Released> expected = new ArrayList<>();
            for (Planned plan : source.all) {
                List<Long> orders = new ArrayList<>();
                for (int i = 1; i <= plan.partitions().size(); i++) {
                    orders.add((long) i);
                }
                expected.add(new Released(plan.xid(), orders));
            }
            List<Released> applied = new ArrayList<>();
            try (SpillArea area = SpillArea.open(spillDirectory, "aborted-run-" + seed)) {
                TransactionAssembler first = assembler(area, AppliedPosition.NONE);
                List<Item> order = deliveries(source, Map.of(), random);
                int moveAt = random.nextInt(order.size() + 1);
                int commitAt = random.nextInt(moveAt + 1);
                Map<TopicPartition, Integer> committedOffsets = new HashMap<>();
                Map<TopicPartition, Integer> position = new HashMap<>();
                // released transactions with their first offsets; durable ones are applied
                List<SourceTransaction> released = new ArrayList<>();
                int durable = 0;
                for (int step = 0; step < moveAt; step++) {
                    if (step == commitAt) {
                        committedOffsets = committable(position, first, released, durable);
                    }
                    Item item = order.get(step);
                    feed(first, item);
                    position.merge(item.partition(), (int) item.offset() + 1, Math::max);
                    released.addAll(first.drainReady());
                    durable = Math.max(durable, random.nextInt(released.size() + 1));
                }
                if (commitAt == moveAt) {
                    committedOffsets = committable(position, first, released, durable);
                }
                Lsn appliedLsn = Lsn.INVALID;
                for (SourceTransaction tx : released.subList(0, durable)) {
                    applied.add(new Released(tx.xid(), Changes.orders(tx)));
                    appliedLsn = tx.endLsn();
                }
                first.close();
                TransactionAssembler second = assembler(
                        area, appliedLsn.isValid() ? new AppliedPosition(appliedLsn, 0, 0) : AppliedPosition.NONE);
                for (Item item : deliveries(source, committedOffsets, random)) {
                    feed(second, item);
                    for (SourceTransaction tx : second.drainReady()) {
                        applied.add(new Released(tx.xid(), Changes.orders(tx)));
                    }
                }
                second.close();
            }
            assertEquals(expected, applied, "seed " + seed);
        }
    }

    /** What the task commits: Connect's positions, held back to the ledger's and the assembler's floors. */
    private static Map<TopicPartition, Integer> committable(
            Map<TopicPartition, Integer> position,
            TransactionAssembler assembler,
            List<SourceTransaction> released,
            int durable) {
        Map<TopicPartition, Long> floors = new HashMap<>(assembler.pendingFloors());
        for (SourceTransaction tx : released.subList(durable, released.size())) {
            tx.firstOffsets().forEach((partition, offset) -> floors.merge(partition, offset, Math::min));
        }
        Map<TopicPartition, Integer> committed = new HashMap<>(position);
        floors.forEach((partition, floor) -> committed.merge(partition, floor.intValue(), Math::min));
        return committed;
    }
}
