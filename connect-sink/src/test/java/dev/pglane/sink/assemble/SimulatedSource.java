package dev.pglane.sink.assemble;

import dev.pglane.wire.marker.Marker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;

/**
 * A source that runs three generations: plain and streamed transactions (with an aborted
 * subtransaction), a run that stops in the middle of a transaction, and a next run that sends that
 * transaction and the last committed one again. It writes each partition's stream in order and keeps
 * the reference answer: the transactions a consumer applies, in END order, with their records.
 */
final class SimulatedSource {
    /** One Kafka record: a change or a marker, at its offset. */
    record Item(TopicPartition partition, long offset, ChangeRecord change, Marker marker) {}

    /** A transaction the reference consumer applies. */
    record Applied(long xid, long generation, List<Long> totalOrders) {}

    private record Planned(
            long xid, List<TopicPartition> partitions, List<Long> subxids, long abortedSubxid, long endLsn) {}

    private final Random random;
    private final Map<TopicPartition, List<Item>> streams = new LinkedHashMap<>();
    private final List<Applied> applied = new ArrayList<>();
    private long nextXid = 100;
    private long nextLsn = 0x1000;
    private long appliedThrough;

    SimulatedSource(long seed) {
        this.random = new Random(seed);
        Planned partial = null;
        Planned lastCommitted = null;
        for (long generation = 1; generation <= 3; generation++) {
            emit(Changes.MARKERS, null, Changes.start(generation));
            if (lastCommitted != null) {
                commit(lastCommitted, generation);
                commit(partial, generation);
            }
            int transactions = 3 + random.nextInt(5);
            for (int i = 0; i < transactions; i++) {
                lastCommitted = plan();
                commit(lastCommitted, generation);
            }
            if (generation < 3) {
                partial = plan();
                List<ChangeRecord> records = records(partial, generation);
                records.subList(0, 1 + random.nextInt(records.size())).forEach(this::emitChange);
            }
        }
    }

    Map<TopicPartition, List<Item>> streams() {
        return streams;
    }

    List<Applied> applied() {
        return applied;
    }

    private Planned plan() {
        long xid = nextXid++;
        int size = 1 + random.nextInt(8);
        boolean streamed = random.nextInt(3) == 0;
        List<TopicPartition> partitions = new ArrayList<>();
        List<Long> subxids = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            partitions.add(random.nextBoolean() ? Changes.items() : Changes.orders((int) (xid % 2)));
            subxids.add(streamed ? xid + 1000 * random.nextInt(3) : null);
        }
        long aborted = streamed ? xid + 1000 : -1;
        nextLsn += 0x100;
        return new Planned(xid, partitions, subxids, aborted, nextLsn);
    }

    private List<ChangeRecord> records(Planned plan, long generation) {
        List<ChangeRecord> records = new ArrayList<>();
        for (int i = 0; i < plan.partitions().size(); i++) {
            records.add(Changes.insert(
                    plan.xid(),
                    generation,
                    i + 1,
                    plan.subxids().get(i),
                    plan.partitions().get(i),
                    0));
        }
        return records;
    }

    /** Emits the whole transaction; a streamed one has a plain transaction committed in its middle. */
    private void commit(Planned plan, long generation) {
        List<ChangeRecord> records = records(plan, generation);
        int half = records.size() / 2;
        records.subList(0, half).forEach(this::emitChange);
        boolean streamed = plan.abortedSubxid() >= 0;
        if (streamed) {
            Planned between = plan();
            commit(
                    new Planned(between.xid(), between.partitions(), between.subxids(), -1, plan.endLsn() - 1),
                    generation);
            nextLsn = Math.max(nextLsn, plan.endLsn());
        }
        records.subList(half, records.size()).forEach(this::emitChange);
        List<ChangeRecord> kept = records;
        if (streamed) {
            emit(Changes.MARKERS, null, Changes.abort(plan.xid(), plan.abortedSubxid(), generation));
            kept = records.stream()
                    .filter(record -> !Long.valueOf(plan.abortedSubxid())
                            .equals(record.event().transaction().subxid()))
                    .toList();
        }
        emit(Changes.MARKERS, null, Changes.end(plan.xid(), generation, plan.endLsn(), kept));
        if (plan.endLsn() > appliedThrough) {
            appliedThrough = plan.endLsn();
            applied.add(new Applied(
                    plan.xid(),
                    generation,
                    kept.stream()
                            .map(record -> record.event().transaction().totalOrder())
                            .toList()));
        }
    }

    private void emitChange(ChangeRecord record) {
        emit(record.partition(), record, null);
    }

    private void emit(TopicPartition partition, ChangeRecord change, Marker marker) {
        List<Item> stream = streams.computeIfAbsent(partition, ignored -> new ArrayList<>());
        ChangeRecord placed =
                change == null ? null : new ChangeRecord(partition, stream.size(), change.event(), change.sizeBytes());
        stream.add(new Item(partition, stream.size(), placed, marker));
    }

    /** Every stream's items in order, randomly merged, with some items delivered again later. */
    static List<Item> deliveries(Map<TopicPartition, List<Item>> streams, Random random) {
        Map<TopicPartition, List<Item>> pending = new HashMap<>();
        streams.forEach((partition, items) -> pending.put(partition, new ArrayList<>(items)));
        List<Item> order = new ArrayList<>();
        while (!pending.isEmpty()) {
            List<TopicPartition> open = new ArrayList<>(pending.keySet());
            open.sort((a, b) -> a.toString().compareTo(b.toString()));
            TopicPartition partition = open.get(random.nextInt(open.size()));
            List<Item> items = pending.get(partition);
            Item item = items.remove(0);
            order.add(item);
            if (random.nextInt(10) == 0) {
                items.add(random.nextInt(items.size() + 1), item);
            }
            if (items.isEmpty()) {
                pending.remove(partition);
            }
        }
        return order;
    }
}
