package dev.pglane.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pglane.connect.logging.LogCapture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DropWarningsTest {
    @Test
    void eachReasonIsWarnedAtOnceThenAtMostOnceAMinuteWithTheCountSince() {
        AtomicLong clock = new AtomicLong();
        DropWarnings warnings = new DropWarnings(clock::get);
        try (LogCapture log = LogCapture.start()) {
            warnings.dropped("duplicate", 2);
            warnings.dropped("non-transactional", 1);
            warnings.dropped("duplicate", 3);
            clock.addAndGet(TimeUnit.SECONDS.toNanos(30));
            warnings.dropped("duplicate", 4);
            clock.addAndGet(TimeUnit.SECONDS.toNanos(31));
            warnings.dropped("duplicate", 1);

            List<String> lines = log.warnings().stream()
                    .map(l -> l.substring(l.indexOf("Dropped"), l.indexOf(':')))
                    .toList();
            assertEquals(
                    List.of(
                            "Dropped 2 record(s) as duplicate",
                            "Dropped 1 record(s) as non-transactional",
                            "Dropped 8 record(s) as duplicate in the last 61 s"),
                    lines);
        }
    }
}
