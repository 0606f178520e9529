package dev.pglane.connect.avro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Calls that never return, as a client that ignores interrupts makes them, take a bounded number of threads. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RegistryCallTest {
    private static long callThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("pglane-registry-call-"))
                .count();
    }

    @Test
    void callsThatHangTakeAtMostTheBoundOfThreadsAndTheNextFailsAtOnceAsRetriable() throws Exception {
        CountDownLatch released = new CountDownLatch(1);
        try {
            for (int i = 0; i < RegistryCall.MAX_THREADS + 4; i++) {
                String what = "record t-0@" + i;
                RetriableException e = assertThrows(
                        RetriableException.class,
                        () -> RegistryCall.within(Duration.ofMillis(50), "http://registry", what, () -> {
                            while (released.getCount() > 0) {
                                try {
                                    released.await();
                                } catch (InterruptedException ignored) {
                                    // the client of a registry that never answers, deaf to interrupts
                                }
                            }
                            return "late";
                        }));
                assertTrue(e.getMessage().contains(what), e::getMessage);
            }
            assertEquals(RegistryCall.MAX_THREADS, callThreads(), "the threads of the calls that still hang");
            RetriableException next = assertThrows(
                    RetriableException.class,
                    () -> RegistryCall.within(Duration.ofSeconds(5), "http://registry", "record t-0@99", () -> "x"));
            assertTrue(
                    next.getMessage().startsWith("All 16 threads for schema registry calls still wait"),
                    next::getMessage);
        } finally {
            released.countDown();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String answer = null;
        while (answer == null && System.nanoTime() < deadline) {
            try {
                answer = RegistryCall.within(Duration.ofSeconds(5), "http://registry", "record t-0@100", () -> "read");
            } catch (RetriableException stillBusy) {
                Thread.onSpinWait(); // the released calls are returning their threads
            }
        }
        assertEquals("read", answer, "once the calls return, their threads serve new ones");
    }
}
