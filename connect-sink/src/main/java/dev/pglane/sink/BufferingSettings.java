package dev.pglane.sink;

import static org.apache.kafka.common.config.ConfigDef.Importance.LOW;
import static org.apache.kafka.common.config.ConfigDef.Importance.MEDIUM;
import static org.apache.kafka.common.config.ConfigDef.Type.INT;
import static org.apache.kafka.common.config.ConfigDef.Type.LONG;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

import dev.pglane.connect.config.ConfigGroup;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The keys of the sink's configuration that bound what it holds between reading records and committing their
 * transactions, in memory and on disk: their docs, defaults and validators, defined into {@link
 * PgSinkConfig#CONFIG_DEF}, which reads them.
 */
public final class BufferingSettings {
    public static final String BUFFER_MAX_BYTES = "buffer.max.bytes";
    static final String BUFFER_MAX_BYTES_DOC = "Memory for transactions being assembled; beyond it the largest"
            + " transactions spill to spill.directory.";
    static final long BUFFER_MAX_BYTES_DEFAULT = 268_435_456L;

    public static final String BUFFER_MAX_TRANSACTIONS = "buffer.max.transactions";
    static final String BUFFER_MAX_TRANSACTIONS_DOC =
            "Most transactions held between their arrival and their commit on the target. While the"
                    + " assembler holds more than a tenth of it (at least 16), partitions that run ahead of"
                    + " what the next transaction waits for are paused.";
    static final int BUFFER_MAX_TRANSACTIONS_DEFAULT = 10_000;

    public static final String TRANSACTION_WAIT_WARN_MS = "transaction.wait.warn.ms";
    static final String TRANSACTION_WAIT_WARN_MS_DOC = "How long the next transaction in commit order may wait for"
            + " records its END counts before the sink logs a WARN naming the topics and whether it consumes them (a"
            + " topics list that lacks a change topic makes it wait for ever); again every time that much longer."
            + " The wait is also the metric head-wait-ms. 0: no warning.";
    static final int TRANSACTION_WAIT_WARN_MS_DEFAULT = 60_000;

    public static final String SPILL_DIRECTORY = "spill.directory";
    static final String SPILL_DIRECTORY_DOC = "Where large transactions spill to. Empty: <user.home>/.pglane/spill, the"
            + " home of the user the worker runs as, where no other local user can create or replace anything (a"
            + " shared temporary directory would let one plant the name first). The files hold row data, so each"
            + " connector's subdirectory is private: created 0700, refused when it is a symbolic link or belongs to"
            + " another user, or when its parent lets other users replace it (writable by them without the sticky"
            + " bit, or owned by another user than this one or root); files are 0600."
            + " Each connector keeps its files in a subdirectory named after it, one run directory per task start"
            + " with a lock file beside it, so connectors may share this directory. A starting task deletes the"
            + " runs of its connector that no live process holds (what a crashed run left), never a run whose lock"
            + " is held.";
    static final String SPILL_DIRECTORY_DEFAULT = "";

    public static final String SPILL_MAX_BYTES = "spill.max.bytes";
    static final String SPILL_MAX_BYTES_DOC = "Disk for spilled transactions. Above it the task stops reading ahead:"
            + " it pauses every partition that the next transaction in commit order does not wait for, until the"
            + " spill files fall below half of it. That transaction's partitions keep flowing, so one larger than"
            + " this still completes (with a warning) and the files may grow past the cap until it is applied."
            + " Lower protects the disk, but a sink that is behind then reads its topics less in parallel and"
            + " completes fewer transactions at a time; higher lets it hold more transactions waiting for records.";
    static final long SPILL_MAX_BYTES_DEFAULT = 10_737_418_240L;

    private BufferingSettings() {}

    static void define(ConfigGroup group) {
        group.key(BUFFER_MAX_BYTES, "Buffer memory (bytes)", Width.MEDIUM)
                .define(LONG, BUFFER_MAX_BYTES_DEFAULT, Range.atLeast(1L << 20), MEDIUM, BUFFER_MAX_BYTES_DOC);
        group.key(BUFFER_MAX_TRANSACTIONS, "Buffered transactions", Width.SHORT)
                .define(INT, BUFFER_MAX_TRANSACTIONS_DEFAULT, Range.atLeast(1), LOW, BUFFER_MAX_TRANSACTIONS_DOC);
        group.key(TRANSACTION_WAIT_WARN_MS, "Warn after waiting (ms)", Width.SHORT)
                .define(INT, TRANSACTION_WAIT_WARN_MS_DEFAULT, Range.atLeast(0), LOW, TRANSACTION_WAIT_WARN_MS_DOC);
        group.key(SPILL_DIRECTORY, "Spill directory", Width.LONG)
                .define(STRING, SPILL_DIRECTORY_DEFAULT, null, LOW, SPILL_DIRECTORY_DOC);
        group.key(SPILL_MAX_BYTES, "Spill disk (bytes)", Width.MEDIUM)
                .define(LONG, SPILL_MAX_BYTES_DEFAULT, Range.atLeast(1L << 20), MEDIUM, SPILL_MAX_BYTES_DOC);
    }
}
