package dev.pglane.sink.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pglane.connect.logging.LogCapture;
import dev.pglane.sink.apply.TargetServer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A superuser sink and tables whose owners are not superusers: triggers enabled ALWAYS or REPLICA on them would run
 * with the sink's rights, so the catalog warns of each such table once, or refuses it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ForeignTriggersTest {
    @RegisterExtension
    static final TargetServer server = new TargetServer(
            "CREATE ROLE tenant LOGIN",
            "CREATE SCHEMA shop AUTHORIZATION tenant",
            "CREATE FUNCTION shop.audit() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END$$",
            "CREATE TABLE shop.always (id int PRIMARY KEY)",
            "CREATE TRIGGER grab BEFORE INSERT ON shop.always FOR EACH ROW EXECUTE FUNCTION shop.audit()",
            "ALTER TABLE shop.always ENABLE ALWAYS TRIGGER grab",
            "ALTER TABLE shop.always OWNER TO tenant",
            "CREATE TABLE shop.replica (id int PRIMARY KEY) PARTITION BY RANGE (id)",
            "CREATE TABLE shop.replica_1 PARTITION OF shop.replica FOR VALUES FROM (0) TO (100)",
            "CREATE TRIGGER grab BEFORE INSERT ON shop.replica_1 FOR EACH ROW EXECUTE FUNCTION shop.audit()",
            "ALTER TABLE shop.replica_1 ENABLE REPLICA TRIGGER grab",
            "ALTER TABLE shop.replica_1 OWNER TO tenant",
            "CREATE TABLE shop.origin_only (id int PRIMARY KEY)",
            "CREATE TRIGGER grab BEFORE INSERT ON shop.origin_only FOR EACH ROW EXECUTE FUNCTION shop.audit()",
            "ALTER TABLE shop.origin_only OWNER TO tenant",
            "CREATE TABLE shop.own (id int PRIMARY KEY)",
            "CREATE TRIGGER grab BEFORE INSERT ON shop.own FOR EACH ROW EXECUTE FUNCTION shop.audit()",
            "ALTER TABLE shop.own ENABLE ALWAYS TRIGGER grab");

    private static TargetCatalog catalog(ForeignTriggers.Policy policy) {
        return new TargetCatalog(server.endpoint(), "triggers-test", new ForeignTriggers(policy));
    }

    @Test
    void aTableOfAnotherOwnerWithAlwaysOrReplicaTriggersIsWarnedOfOnce() {
        try (LogCapture log = LogCapture.start()) {
            TargetCatalog catalog = catalog(ForeignTriggers.Policy.WARN);
            for (String table : List.of("always", "replica", "origin_only", "own")) {
                TableName name = new TableName("shop", table);
                assertTrue(catalog.lookup(name).isPresent());
                catalog.invalidate(name);
                catalog.lookup(name); // read again after DDL: still one warning
            }
            List<String> warnings = log.warnings();
            assertEquals(2, warnings.size(), warnings::toString);
            assertTrue(
                    warnings.get(0)
                            .contains(
                                    "Target table shop.always (or a partition of it) belongs to role tenant,"
                                            + " which is not a superuser, and has trigger(s) always.grab enabled ALWAYS or REPLICA"),
                    warnings::toString);
            assertTrue(warnings.get(1).contains("trigger(s) replica_1.grab"), warnings::toString);
        }
    }

    @Test
    void refusedTheTableStopsTheSinkBeforeItWrites() {
        TargetCatalog catalog = catalog(ForeignTriggers.Policy.REFUSE);
        ConnectException e =
                assertThrows(ConnectException.class, () -> catalog.lookup(new TableName("shop", "always")));
        assertTrue(e.getMessage().contains("refused (apply.foreign.triggers=refuse)"), e::getMessage);
        assertTrue(catalog.lookup(new TableName("shop", "own")).isPresent(), "its own table's triggers are its own");
    }
}
