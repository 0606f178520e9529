package dev.pglane.sink.assemble;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Joins consecutive small source transactions into groups that apply as one target transaction each.
 *
 * <p>Every target commit is a link in a chain: commits happen strictly in source order, so each one
 * waits for the previous commit's round trip and for the thread that sent it, whatever the number of
 * workers. Small transactions (pgbench's are four rows) spend most of their time in that chain. A group
 * pays for it once. Readers of the target still see only committed source states, in order; between
 * two groups they just skip the states inside one. The group's progress is its last transaction's
 * END, written in the same commit, so a group is applied entirely or not at all, exactly once.
 *
 * <p>Only transactions held in memory are grouped: a spilled one is large enough to stand alone. So is a snapshot
 * chunk: a group keeps its last member's END only, the chunk's END says where the snapshot stands, and the chunk
 * first deletes the target's rows of its key range it does not hold, which must happen at its own place in the
 * order. Chunks of different key ranges thus run on several workers.
 */
public final class TransactionGroups {
    private final int maxTransactions;
    private final long maxChanges;

    /**
     * @param maxTransactions most source transactions in a group; 1 turns grouping off
     * @param maxChanges most change records in a group (a group closes before it would pass it, unless
     *     it is a single transaction)
     */
    public TransactionGroups(int maxTransactions, long maxChanges) {
        this.maxTransactions = maxTransactions;
        this.maxChanges = maxChanges;
    }

    /** {@code ready} (in commit order) as groups, in the same order. */
    public List<SourceTransaction> group(List<SourceTransaction> ready) {
        if (maxTransactions <= 1 || ready.size() <= 1) {
            return ready;
        }
        List<SourceTransaction> groups = new ArrayList<>();
        List<SourceTransaction> open = new ArrayList<>();
        long openChanges = 0;
        for (SourceTransaction tx : ready) {
            boolean fits = !tx.changes().spilled()
                    && tx.end().snapshot() == null
                    && open.size() < maxTransactions
                    && openChanges + tx.changes().count() <= maxChanges;
            if (!fits) {
                close(open, groups);
                openChanges = 0;
            }
            if (tx.changes().spilled()) {
                groups.add(tx);
                continue;
            }
            open.add(tx);
            openChanges += tx.changes().count();
            if (tx.end().snapshot() != null) {
                close(open, groups);
                openChanges = 0;
            }
        }
        close(open, groups);
        return groups;
    }

    /** Adds the open members, if any, to {@code groups} as one group and empties them. */
    private static void close(List<SourceTransaction> open, List<SourceTransaction> groups) {
        if (!open.isEmpty()) {
            groups.add(join(open));
            open.clear();
        }
    }

    private static SourceTransaction join(List<SourceTransaction> members) {
        if (members.size() == 1) {
            return members.get(0);
        }
        SourceTransaction last = members.get(members.size() - 1);
        Map<TopicPartition, Long> firstOffsets = new HashMap<>();
        List<TransactionChanges> changes = new ArrayList<>(members.size());
        int transactions = 0;
        for (SourceTransaction member : members) {
            member.firstOffsets().forEach((partition, offset) -> firstOffsets.merge(partition, offset, Math::min));
            changes.add(member.changes());
            transactions += member.transactionCount();
        }
        return new SourceTransaction(
                last.end(),
                last.markerOffset(),
                firstOffsets,
                new GroupedChanges(changes),
                members.get(0).firstXid(),
                transactions);
    }
}
