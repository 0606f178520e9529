package dev.pglane.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.kafka.CommittedTransaction;
import dev.pglane.local.kafka.WireRecord;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import dev.pglane.wire.envelope.ChangeEvent;
import dev.pglane.wire.envelope.Op;
import dev.pglane.wire.marker.DataCollectionCount;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Logical decoding messages ({@code pg_logical_emit_message}) through a real worker and broker with {@code
 * logical.messages=emit}: a transactional one among its transaction's row changes, counted in its END, and a
 * non-transactional one at its place in the stream, all on {@code <prefix>.messages} in the order the server wrote
 * them to the stream; those of prefixes {@code logical.messages.prefixes} does not name, of either kind, are not.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LogicalMessagesIT {
    private static final Duration ARRIVAL = Duration.ofSeconds(60);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.SourceServers#versions")
    @DisplayName("transactional messages arrive inside their transactions, non-transactional ones between them, on"
            + " <prefix>.messages in stream order; other prefixes than those asked for do not")
    void messagesArriveInStreamOrder(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        String name = "messages_pg" + version.major();
        SqlSession.execute(source, "CREATE SCHEMA " + name, "CREATE TABLE " + name + ".items (id int PRIMARY KEY)");
        Map<String, String> settings = Map.of(
                "logical.messages",
                "emit",
                "logical.messages.prefixes",
                "app,audit",
                "table.include.list",
                name + "\\..*");
        try (SourceConnectorRun run = SourceConnectorRun.start(worker, source, name, settings);
                SqlSession session = SqlSession.open(source)) {
            session.exec("INSERT INTO " + name + ".items VALUES (1)");
            session.exec("SELECT pg_logical_emit_message(true, 'app', 'in the first')");
            session.exec("SELECT pg_logical_emit_message(true, 'other', 'filtered in the first')");
            session.exec("INSERT INTO " + name + ".items VALUES (2)");
            long first = session.xid();
            session.commit();
            session.exec("SELECT pg_logical_emit_message(false, 'other', 'filtered outside')");
            session.exec("SELECT pg_logical_emit_message(false, 'app', 'outside')");
            session.commit();
            session.exec("SELECT pg_logical_emit_message(true, 'audit', 'the second alone')");
            long second = session.xid();
            session.commit();

            List<ChangeEvent> messages = new ArrayList<>();
            run.reader()
                    .readUntil(
                            record -> {
                                run.rebuilder().accept(record);
                                if (record instanceof WireRecord.Change change
                                        && change.event().op() == Op.MESSAGE) {
                                    assertEquals(name + ".messages", change.topic());
                                    messages.add(change.event());
                                }
                            },
                            () -> messages.size() >= 3 && run.withChanges().size() >= 2,
                            ARRIVAL,
                            () -> "waiting for 3 messages and 2 transactions: "
                                    + run.rebuilder().describe());

            // the last to arrive: any message of another prefix would have come before it
            assertEquals(
                    List.of("in the first", "outside", "the second alone"),
                    contents(messages),
                    "the messages of the prefixes asked for (logical.messages.prefixes), in stream order");
            assertTrue(messages.get(0).message().transactional());
            assertFalse(messages.get(1).message().transactional());
            assertNull(messages.get(1).transaction(), "a non-transactional message belongs to no transaction");
            assertEquals("audit", messages.get(2).message().prefix());

            List<CommittedTransaction> committed = run.withChanges();
            assertEquals(
                    List.of(first, second),
                    committed.stream().map(tx -> tx.end().xid()).toList());
            assertEquals(
                    List.of(Op.CREATE, Op.MESSAGE, Op.CREATE),
                    committed.get(0).changes().stream().map(ChangeEvent::op).toList(),
                    "the message among its transaction's changes, in statement order");
            assertEquals(
                    List.of(
                            new DataCollectionCount(name + ".items", 2, name + "." + name + ".items"),
                            new DataCollectionCount("messages", 1, name + ".messages")),
                    committed.get(0).end().dataCollections());
            assertEquals(
                    List.of(new DataCollectionCount("messages", 1, name + ".messages")),
                    committed.get(1).end().dataCollections());
        }
    }

    private static List<String> contents(List<ChangeEvent> messages) {
        return messages.stream()
                .map(m -> new String(m.message().content(), StandardCharsets.UTF_8))
                .toList();
    }
}
