package dev.pglane.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Connect's side of delivering records to one sink task, as far as recovery goes: a batch that put()
 * refused with a RetriableException is delivered again, and a rewind the task asked for
 * ({@code context.offset}) makes the records from that offset on come again, in their original order.
 */
final class ConnectLoop {
    private final PgSinkTask task;
    private final FakeSinkTaskContext context;
    private final List<SinkRecord> delivered = new ArrayList<>();
    int retriableFailures;

    ConnectLoop(PgSinkTask task, FakeSinkTaskContext context) {
        this.task = task;
        this.context = context;
    }

    /** Delivers {@code batch} (after everything delivered before), retrying until put() takes it. */
    void deliver(List<SinkRecord> batch) {
        delivered.addAll(batch);
        List<SinkRecord> pending = batch;
        for (int attempt = 0; pending != null; attempt++) {
            if (attempt > 100) {
                throw new AssertionError("put() kept refusing the batch");
            }
            try {
                task.put(pending);
                pending = context.rewinds.isEmpty() ? null : redelivery();
            } catch (RetriableException e) {
                retriableFailures++;
            }
        }
    }

    private List<SinkRecord> redelivery() {
        Map<TopicPartition, Long> rewinds = Map.copyOf(context.rewinds);
        context.rewinds.clear();
        List<SinkRecord> again = new ArrayList<>();
        for (SinkRecord record : delivered) {
            Long from = rewinds.get(new TopicPartition(record.topic(), record.kafkaPartition()));
            if (from != null && record.kafkaOffset() >= from) {
                again.add(record);
            }
        }
        return again;
    }
}
