package dev.pglane.it;

import static dev.pglane.it.ExpectedChange.delete;
import static dev.pglane.it.ExpectedChange.insert;
import static dev.pglane.it.ExpectedChange.row;
import static dev.pglane.it.ExpectedChange.truncate;
import static dev.pglane.it.ExpectedChange.update;
import static dev.pglane.it.ExpectedChange.updateKeepingToast;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.local.kafka.CommittedTransaction;
import dev.pglane.local.stack.PostgresNode;
import dev.pglane.local.stack.PostgresVersion;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An application writes to several tables from two sessions at once; a consumer of the topics rebuilds exactly the
 * transactions it committed: the same row changes in statement order, one transaction after the other in commit
 * order, each closed by an END that counts its records per table. Covers key changes, TOAST values left alone and
 * rewritten, REPLICA IDENTITY FULL, savepoints rolled back, a table without a key and TRUNCATE with its options.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class SourceChangesIT {
    private static final Duration ARRIVAL = Duration.ofSeconds(60);

    @RegisterExtension
    static final SharedWorker worker = new SharedWorker();

    @RegisterExtension
    static final SourceServers servers = new SourceServers();

    /** Two out-of-line values (STORAGE EXTERNAL keeps them uncompressed, so they are TOASTed whatever they hold). */
    private final String firstBody = letters(5000, 1);

    private final String secondBody = letters(6000, 2);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.pglane.it.SourceServers#versions")
    @DisplayName("the topics hold exactly the committed transactions, in commit order, with exact row images")
    void changesArriveAsCommitted(PostgresVersion version) throws Exception {
        PostgresNode source = servers.of(version);
        createTables(source);
        String name = "changes_pg" + version.major();
        try (SourceConnectorRun run = SourceConnectorRun.start(worker, source, name, Map.of());
                SqlSession a = SqlSession.open(source);
                SqlSession b = SqlSession.open(source)) {
            List<ExpectedTransaction> expected = new ArrayList<>();
            expected.addAll(interleavedSessions(a, b));
            expected.addAll(toastAndReplicaIdentityFull(a, b));
            expected.addAll(savepointsAndTableWithoutKey(a, b));
            expected.addAll(truncates(a));

            List<CommittedTransaction> rebuilt = run.awaitCommitted(expected.size(), ARRIVAL);
            assertEquals(
                    expected.stream().map(ExpectedTransaction::xid).toList(),
                    rebuilt.stream().map(CommittedTransaction::xid).toList(),
                    "transactions in commit order");
            for (int i = 0; i < expected.size(); i++) {
                expected.get(i).assertMatches(rebuilt.get(i), run.topicPrefix());
                if (i > 0) {
                    assertTrue(
                            rebuilt.get(i)
                                            .end()
                                            .endLsn()
                                            .compareTo(rebuilt.get(i - 1).end().endLsn())
                                    > 0,
                            "END end_lsn grows in commit order");
                }
            }
            run.reader().readQuietFor(run.rebuilder()::accept, Duration.ofSeconds(2));
            assertEquals(expected.size(), run.withChanges().size(), "no transaction arrives twice");
        }
    }

    /** Two transactions whose statements alternate; B commits first. A changes a primary key and deletes a row. */
    private List<ExpectedTransaction> interleavedSessions(SqlSession a, SqlSession b) throws SQLException {
        a.exec("INSERT INTO customers VALUES (1, 'ann', 1), (2, 'bob', 1), (3, 'cy', 2)");
        b.exec("INSERT INTO orders VALUES (10, 1, 'first')");
        a.exec("UPDATE customers SET name = 'bobby' WHERE id = 2");
        b.exec("INSERT INTO orders VALUES (11, 2, 'second')");
        b.exec("UPDATE orders SET note = 'first!' WHERE id = 10");
        ExpectedTransaction txB = new ExpectedTransaction(
                b.xid(),
                List.of(
                        insert("orders", row("id", 10L, "customer_id", 1, "note", "first")),
                        insert("orders", row("id", 11L, "customer_id", 2, "note", "second")),
                        update("orders", null, row("id", 10L, "customer_id", 1, "note", "first!"))));
        b.commit();
        a.exec("UPDATE customers SET id = 30 WHERE id = 3");
        a.exec("DELETE FROM customers WHERE id = 1");
        ExpectedTransaction txA = new ExpectedTransaction(
                a.xid(),
                List.of(
                        insert("customers", row("id", 1, "name", "ann", "tier", 1)),
                        insert("customers", row("id", 2, "name", "bob", "tier", 1)),
                        insert("customers", row("id", 3, "name", "cy", "tier", 2)),
                        update("customers", null, row("id", 2, "name", "bobby", "tier", 1)),
                        update(
                                "customers",
                                row("id", 3, "name", null, "tier", null),
                                row("id", 30, "name", "cy", "tier", 2)),
                        delete("customers", row("id", 1, "name", null, "tier", null))));
        a.commit();
        return List.of(txB, txA);
    }

    /**
     * A TOASTed value left alone by an update (null, listed in unchanged_toast) and then rewritten; meanwhile B
     * changes a REPLICA IDENTITY FULL table, whose updates and deletes carry the whole old row.
     */
    private List<ExpectedTransaction> toastAndReplicaIdentityFull(SqlSession a, SqlSession b) throws SQLException {
        a.exec("INSERT INTO docs VALUES (1, 't1', ?)", firstBody);
        ExpectedTransaction insertDoc = new ExpectedTransaction(
                a.xid(), List.of(insert("docs", row("id", 1, "title", "t1", "body", firstBody))));
        a.commit();
        b.exec("INSERT INTO audit_full VALUES (1, 'a', 1)");
        a.exec("UPDATE docs SET title = 't2' WHERE id = 1");
        a.exec("UPDATE docs SET body = ? WHERE id = 1", secondBody);
        ExpectedTransaction updateDoc = new ExpectedTransaction(
                a.xid(),
                List.of(
                        updateKeepingToast("docs", row("id", 1, "title", "t2", "body", null), List.of("body")),
                        update("docs", null, row("id", 1, "title", "t2", "body", secondBody))));
        a.commit();
        b.exec("UPDATE audit_full SET b = 2 WHERE id = 1");
        b.exec("DELETE FROM audit_full WHERE id = 1");
        ExpectedTransaction full = new ExpectedTransaction(
                b.xid(),
                List.of(
                        insert("audit_full", row("id", 1, "a", "a", "b", 1)),
                        update("audit_full", row("id", 1, "a", "a", "b", 1), row("id", 1, "a", "a", "b", 2)),
                        delete("audit_full", row("id", 1, "a", "a", "b", 2))));
        b.commit();
        return List.of(insertDoc, updateDoc, full);
    }

    /** Rows written and rolled back to a savepoint never appear; B commits inserts into a keyless table first. */
    private List<ExpectedTransaction> savepointsAndTableWithoutKey(SqlSession a, SqlSession b) throws SQLException {
        a.exec("INSERT INTO customers VALUES (40, 'dee', 3)");
        b.exec("INSERT INTO events_nopk VALUES (1, 'boot')");
        a.exec("SAVEPOINT s1");
        a.exec("INSERT INTO customers VALUES (41, 'eve', 3)");
        a.exec("ROLLBACK TO SAVEPOINT s1");
        b.exec("INSERT INTO events_nopk VALUES (2, 'tick')");
        ExpectedTransaction keyless = new ExpectedTransaction(
                b.xid(),
                List.of(
                        insert("events_nopk", row("at", 1, "what", "boot")),
                        insert("events_nopk", row("at", 2, "what", "tick"))));
        b.commit();
        a.exec("INSERT INTO customers VALUES (42, 'fay', 3)");
        a.exec("SAVEPOINT s2");
        a.exec("UPDATE customers SET tier = 4 WHERE id = 42");
        a.exec("RELEASE SAVEPOINT s2");
        a.exec("SAVEPOINT s3");
        a.exec("DELETE FROM customers WHERE id = 40");
        a.exec("ROLLBACK TO SAVEPOINT s3");
        ExpectedTransaction savepoints = new ExpectedTransaction(
                a.xid(),
                List.of(
                        insert("customers", row("id", 40, "name", "dee", "tier", 3)),
                        insert("customers", row("id", 42, "name", "fay", "tier", 3)),
                        update("customers", null, row("id", 42, "name", "fay", "tier", 4))));
        a.commit();
        return List.of(keyless, savepoints);
    }

    /** TRUNCATE ... RESTART IDENTITY CASCADE reaches the referencing table too; a plain TRUNCATE has no options. */
    private List<ExpectedTransaction> truncates(SqlSession a) throws SQLException {
        a.exec("INSERT INTO parent (v) VALUES ('p1'), ('p2')");
        a.exec("INSERT INTO child (parent_id, v) VALUES (1, 'c1'), (2, 'c2')");
        a.exec("INSERT INTO other VALUES (7)");
        ExpectedTransaction fill = new ExpectedTransaction(
                a.xid(),
                List.of(
                        insert("parent", row("id", 1, "v", "p1")),
                        insert("parent", row("id", 2, "v", "p2")),
                        insert("child", row("id", 1, "parent_id", 1, "v", "c1")),
                        insert("child", row("id", 2, "parent_id", 2, "v", "c2")),
                        insert("other", row("x", 7))));
        a.commit();
        a.exec("TRUNCATE parent RESTART IDENTITY CASCADE");
        ExpectedTransaction cascade = new ExpectedTransaction(
                a.xid(), List.of(truncate("parent", true, true), truncate("child", true, true)));
        a.commit();
        a.exec("TRUNCATE other");
        a.exec("INSERT INTO parent (v) VALUES ('p3')");
        ExpectedTransaction plain = new ExpectedTransaction(
                a.xid(), List.of(truncate("other", false, false), insert("parent", row("id", 1, "v", "p3"))));
        a.commit();
        return List.of(fill, cascade, plain);
    }

    private static void createTables(PostgresNode source) throws SQLException {
        SqlSession.execute(
                source,
                "CREATE TABLE customers (id integer PRIMARY KEY, name text, tier integer)",
                "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id integer, note text)",
                "CREATE TABLE docs (id integer PRIMARY KEY, title text, body text)",
                "ALTER TABLE docs ALTER COLUMN body SET STORAGE EXTERNAL",
                "CREATE TABLE audit_full (id integer PRIMARY KEY, a text, b integer)",
                "ALTER TABLE audit_full REPLICA IDENTITY FULL",
                "CREATE TABLE parent (id serial PRIMARY KEY, v text)",
                "CREATE TABLE child (id serial PRIMARY KEY, parent_id integer REFERENCES parent, v text)",
                "CREATE TABLE events_nopk (at integer, what text)",
                "CREATE TABLE other (x integer PRIMARY KEY)");
    }

    private static String letters(int length, long seed) {
        Random random = new Random(seed);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }
}
